// The genetic algorithm: a population assembled from the fragment library evolves by crossover and mutation
// under (mu + lambda) selection on fitness, with a similarity niche so the population does not collapse onto
// one chemotype. Every passing molecule enters an archive; the result is the best diverse subset of it.
import { monotonicProgress, type RunHooks } from '@evident/contract';
import { GenerationAbortedError } from '../errors.js';
import { loadRDKit, type RDKit } from '../rdkit.js';
import type { GenerationInput } from '../request.js';
import { tanimoto } from '../chem/fingerprint.js';
import { applyDockingTerm, Evaluator, selectDiverse, type Evaluated } from '../scoring/evaluate.js';
import type { DockingPort } from '../target/port.js';
import { DockingRounds } from './docking-rounds.js';
import { FragmentLibrary } from './library.js';
import { Operators } from './operators.js';
import { Random } from './prng.js';

export type StopReason = 'num_molecules_reached' | 'evaluation_budget' | 'no_progress';

// The one hooks shape of every Evident engine: progress as a fraction 0..1, and a signal to stop the run.
export type { RunHooks } from '@evident/contract';

export interface RunOutcome {
  selected: Evaluated[];
  evaluator: Evaluator;
  stopReason: StopReason;
  generations: number;
  /** Canonical SMILES of the initial (library-assembled) population. */
  initial: Set<string>;
  /** The docking rounds, when the run docked. */
  docking: DockingRounds | null;
  /** Every scored molecule that passed the hard filters (what the returned set is selected from). */
  archive: Evaluated[];
}

/** Docking rounds run every this many generations while the rounds' share of the budget lasts. */
export const DOCK_EVERY = 2;
/** Rounds the in-search share of the docking budget is spread over. */
export const EXPECTED_ROUNDS = 8;

/**
 * Docking calls kept for after the search: enough to dock every returned molecule that the rounds have not
 * docked yet, with room for stereoisomers. The rounds spend the rest, and everything docked can be returned.
 */
export function finalDockingReserve(numMolecules: number, budget: number): number {
  return Math.min(budget, Math.ceil(1.5 * numMolecules) + 4);
}

/** Generations without improvement of the selected set's mean score before the run counts as converged. */
export const PATIENCE = 4;
/** Population members more similar than this to a fitter member are dropped (niching). */
const NICHE_SIMILARITY = 0.8;
const TOURNAMENT = 3;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function runGeneticAlgorithm(
  input: GenerationInput,
  hooks: RunHooks = {},
  port: DockingPort | null = null,
): Promise<RunOutcome> {
  const rd = await loadRDKit();
  const library = FragmentLibrary.load();
  const rng = new Random(input.options.seed);
  const evaluator = new Evaluator(rd, input);
  const ops = new Operators(rd, library);
  const { num_molecules: target, options } = input;
  const budget = options.max_evaluations;
  const archive: Evaluated[] = [];
  const report = monotonicProgress(hooks);
  const check = () => {
    if (hooks.signal?.aborted) throw new GenerationAbortedError();
  };
  const rounds = port ? new DockingRounds(rd, port, options.docking_budget, options.docking_exhaustiveness) : null;
  const reserve = finalDockingReserve(target, options.docking_budget);
  const perRound = Math.max(2, Math.ceil((options.docking_budget - reserve) / EXPECTED_ROUNDS));
  const dockingShare = () => (rounds ? rounds.stats.calls / Math.max(1, rounds.stats.budget) : 0);
  // Every docked molecule should be returnable: nothing is docked above the similarity cap to something
  // docked before it or picked with it, or the returned set (diverse under the cap) could hold only one of the
  // two and the other call was spent for the trend alone.
  const cap = options.similarity_cap;
  const spread = (candidates: Evaluated[], limit: number): Evaluated[] => {
    const picks: Evaluated[] = [];
    for (const e of candidates) {
      if (picks.length >= limit) break;
      if (!e.passes || rounds!.isDocked(e) || rounds!.nearestDocked(e) > cap) continue;
      if (picks.some((p) => tanimoto(p.fp, e.fp) > cap)) continue;
      picks.push(e);
    }
    return picks;
  };
  // One docking round: the fittest undocked passing members, spread out by similarity; then every scored
  // molecule's docking estimate is refreshed, so that selection sees what docking taught.
  const roundsLeft = () => rounds !== null && rounds.remaining - perRound >= reserve;
  const dockRound = async (pool: Evaluated[]) => {
    if (!rounds || !roundsLeft()) return;
    const picks = spread(
      [...pool].sort((a, b) => b.fitness - a.fitness),
      perRound,
    );
    if (picks.length === 0) return;
    await rounds.dock(picks, hooks.signal);
    check();
    refresh();
  };
  const refresh = () => {
    if (!rounds) return;
    for (const e of archive) applyDockingTerm(e, rounds.term(e).term);
    for (const e of population) applyDockingTerm(e, rounds.term(e).term);
  };
  let population: Evaluated[] = [];

  try {
    report('initial population', 0);
    population = await initialPopulation(rd, library, rng, evaluator, archive, options.population_size, hooks);
    const initial = new Set(population.map((p) => p.smiles));
    if (rounds) {
      report('docking', 0.01);
      // the evaluator scored every molecule with a placeholder docking term: put the estimate in before ranking
      refresh();
      await dockRound(population);
    }
    let generations = 0;
    let best = -Infinity;
    let stale = 0;
    let stopReason: StopReason = 'evaluation_budget';
    let failedBreeding = 0;
    let progress = 0;
    // selection cost grows as target^2 (picks x a pool of 5 x target): every generation up to ~160 molecules
    const selectEvery = Math.max(1, Math.round((target * target) / 50_000));

    while (evaluator.stats.evaluations < budget) {
      check();
      generations++;
      const children: Evaluated[] = [];
      const before = evaluator.stats.evaluations;
      for (let k = 0; k < options.population_size && evaluator.stats.evaluations < budget; k++) {
        let child: string | null = null;
        const r = rng.next();
        if (r < 0.05) child = library.assemble(rd, rng);
        else if (r < 0.5) {
          const o = ops.crossover(tournament(population, rng), tournament(population, rng), rng);
          child = o?.smiles ?? null;
          if (child && rng.chance(0.3)) child = ops.mutate(child, rng)?.smiles ?? child;
        } else child = ops.mutate(tournament(population, rng), rng)?.smiles ?? null;
        if (!child) continue;
        const { result, isNew } = evaluator.evaluate(child);
        if (result && isNew) {
          children.push(result);
          if (result.passes) archive.push(result);
        }
      }
      failedBreeding = evaluator.stats.evaluations === before ? failedBreeding + 1 : 0;
      if (rounds) for (const c of children) applyDockingTerm(c, rounds.term(c).term);
      population = survivors([...population, ...children], options.population_size);
      if (rounds && generations % DOCK_EVERY === 0) await dockRound(population);

      if (failedBreeding >= 20) {
        stopReason = 'no_progress';
        break;
      }
      if (generations % 2 === 0) await yieldToLoop();
      // Selecting the returned set costs ~ target x archive similarity computations: for large requests it is
      // done every few generations (patience then counts selections, not generations).
      if (generations % selectEvery !== 0) {
        progress = Math.max(progress, Math.min(99, (100 * evaluator.stats.evaluations) / budget));
        if (rounds) progress = Math.max(progress, Math.min(90, 100 * dockingShare()));
        report('evolving', Math.round(progress * 10) / 1000);
        continue;
      }
      const selected = selectDiverse(archive, target, options.similarity_cap);
      const mean = selected.length ? selected.reduce((s, e) => s + e.scores.total, 0) / selected.length : 0;
      if (selected.length >= target) {
        if (mean > best + 1e-3) {
          best = mean;
          stale = 0;
        } else {
          stale++;
        }
        // With docking, convergence on the surrogate is not the end while the search rounds still have budget:
        // each round's scores reshape the fitness the convergence was measured on.
        if (stale >= PATIENCE && !roundsLeft()) {
          stopReason = 'num_molecules_reached';
          break;
        }
      }
      // progress: the larger of budget used and (diverse molecules found, then convergence), never going back
      const found = Math.min(1, selected.length / target);
      const estimate =
        100 * Math.max(evaluator.stats.evaluations / budget, 0.5 * found + 0.5 * found * Math.min(1, stale / PATIENCE));
      progress = Math.max(progress, Math.min(rounds ? 90 : 99, estimate));
      if (rounds) progress = Math.max(progress, Math.min(90, 100 * dockingShare()));
      report('evolving', Math.round(progress * 10) / 1000);
    }
    check();
    if (!rounds) {
      const selected = selectDiverse(archive, target, options.similarity_cap);
      return { selected, evaluator, stopReason, generations, initial, docking: null, archive };
    }
    // After the search: dock whatever the diverse selection holds that is not docked yet, re-select with those
    // scores, and repeat until the selection is all docked or the budget is spent; then what the budget still
    // holds docks the next-best candidates by the estimate, a batch at a time. The returned set is chosen among
    // every docked molecule (search rounds included): the wider the field, the better the set.
    const dockPass = async (molecules: Evaluated[]) => {
      report('docking', Math.max(progress, Math.min(99, 90 + 9 * dockingShare())) / 100);
      const before = rounds.stats.calls;
      await rounds.dock(molecules, hooks.signal);
      refresh();
      return rounds.stats.calls > before;
    };
    for (let pass = 0; pass < 20 && rounds.remaining > 0; pass++) {
      check();
      const pending = selectDiverse(archive, target, options.similarity_cap).filter((e) => !rounds.isDocked(e));
      if (pending.length === 0 || !(await dockPass(pending))) break;
    }
    for (let pass = 0; pass < 50 && rounds.remaining > 0; pass++) {
      check();
      const undocked = archive.filter((e) => !rounds.isDocked(e) && rounds.nearestDocked(e) <= cap);
      const field = spread(selectDiverse(undocked, Math.min(rounds.remaining, target), cap), target);
      if (field.length === 0 || !(await dockPass(field))) break;
    }
    check();
    const selected = selectDiverse(
      archive.filter((e) => rounds.isDocked(e)),
      target,
      options.similarity_cap,
    );
    return { selected, evaluator, stopReason, generations, initial, docking: rounds, archive };
  } finally {
    ops.dispose();
  }
}

async function initialPopulation(
  rd: RDKit,
  library: FragmentLibrary,
  rng: Random,
  evaluator: Evaluator,
  archive: Evaluated[],
  size: number,
  hooks: RunHooks,
): Promise<Evaluated[]> {
  const out: Evaluated[] = [];
  for (let attempts = 0; out.length < size && attempts < size * 20; attempts++) {
    if (attempts % 50 === 49) {
      if (hooks.signal?.aborted) throw new GenerationAbortedError();
      await yieldToLoop();
    }
    const s = library.assemble(rd, rng);
    if (!s) continue;
    const { result, isNew } = evaluator.evaluate(s);
    if (!result || !isNew) continue;
    out.push(result);
    if (result.passes) archive.push(result);
  }
  if (out.length === 0) throw new Error('fragment library produced no valid molecule');
  return out;
}

function tournament(pop: Evaluated[], rng: Random): string {
  let best = rng.pick(pop);
  for (let i = 1; i < TOURNAMENT; i++) {
    const c = rng.pick(pop);
    if (c.fitness > best.fitness) best = c;
  }
  return best.smiles;
}

/** Fittest first, skipping near-duplicates of fitter members; topped up from the rest if the niche is too strict. */
function survivors(pool: Evaluated[], size: number): Evaluated[] {
  const sorted = pool.sort((a, b) => b.fitness - a.fitness || (a.smiles < b.smiles ? -1 : 1));
  const kept: Evaluated[] = [];
  const skipped: Evaluated[] = [];
  const seen = new Set<string>();
  for (const c of sorted) {
    if (seen.has(c.smiles)) continue;
    seen.add(c.smiles);
    if (kept.length >= size) break;
    if (kept.some((k) => tanimoto(k.fp, c.fp) > NICHE_SIMILARITY)) skipped.push(c);
    else kept.push(c);
  }
  for (const c of skipped) {
    if (kept.length >= size) break;
    kept.push(c);
  }
  return kept;
}
