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

/** What every stage of one run reads and updates: the engines, the request, the population and the archive. */
interface Search {
  rd: RDKit;
  library: FragmentLibrary;
  rng: Random;
  evaluator: Evaluator;
  ops: Operators;
  input: GenerationInput;
  hooks: RunHooks;
  /** Every scored molecule that passed the hard filters. */
  archive: Evaluated[];
  population: Evaluated[];
  report: (stage: string, fraction: number) => void;
  /** Throws when the caller aborted the run. */
  check: () => void;
  docking: SearchDocking | null;
}

/** How the evolution ended, and the progress it had reported (the final docking continues from it). */
interface Evolution {
  stopReason: StopReason;
  generations: number;
  progress: number;
  /** Best mean score of the selected set so far, and selections since it last improved. */
  best: number;
  stale: number;
}

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
  const search: Search = {
    rd,
    library,
    rng,
    evaluator,
    ops,
    input,
    hooks,
    archive: [],
    population: [],
    report: monotonicProgress(hooks),
    check: () => {
      if (hooks.signal?.aborted) throw new GenerationAbortedError();
    },
    docking: null,
  };
  if (port) search.docking = new SearchDocking(search, port);
  const { archive, docking } = search;
  const { num_molecules: target, options } = input;

  try {
    search.report('initial population', 0);
    search.population = await initialPopulation(rd, library, rng, evaluator, archive, options.population_size, hooks);
    const initial = new Set(search.population.map((p) => p.smiles));
    if (docking) {
      search.report('docking', 0.01);
      // the evaluator scored every molecule with a placeholder docking term: put the estimate in before ranking
      docking.refresh();
      await docking.dockRound(search.population);
    }
    const { stopReason, generations, progress } = await evolve(search);
    search.check();
    if (!docking) {
      const selected = selectDiverse(archive, target, options.similarity_cap);
      return { selected, evaluator, stopReason, generations, initial, docking: null, archive };
    }
    const selected = await docking.finish(progress);
    return { selected, evaluator, stopReason, generations, initial, docking: docking.rounds, archive };
  } finally {
    ops.dispose();
  }
}

/** Generations of breeding and (mu + lambda) selection until the budget is spent, the run converges or stalls. */
async function evolve(search: Search): Promise<Evolution> {
  const { evaluator, docking } = search;
  const { num_molecules: target, options } = search.input;
  const budget = options.max_evaluations;
  const state: Evolution = { stopReason: 'evaluation_budget', generations: 0, progress: 0, best: -Infinity, stale: 0 };
  let failedBreeding = 0;
  // selection cost grows as target^2 (picks x a pool of 5 x target): every generation up to ~160 molecules
  const selectEvery = Math.max(1, Math.round((target * target) / 50_000));

  while (evaluator.stats.evaluations < budget) {
    search.check();
    state.generations++;
    const before = evaluator.stats.evaluations;
    const children = breed(search);
    failedBreeding = evaluator.stats.evaluations === before ? failedBreeding + 1 : 0;
    if (docking) for (const c of children) applyDockingTerm(c, docking.rounds.term(c).term);
    search.population = survivors([...search.population, ...children], options.population_size);
    if (docking && state.generations % DOCK_EVERY === 0) await docking.dockRound(search.population);

    if (failedBreeding >= 20) {
      state.stopReason = 'no_progress';
      break;
    }
    if (state.generations % 2 === 0) await yieldToLoop();
    // Selecting the returned set costs ~ target x archive similarity computations: for large requests it is
    // done every few generations (patience then counts selections, not generations).
    if (state.generations % selectEvery !== 0) {
      state.progress = Math.max(state.progress, Math.min(99, (100 * evaluator.stats.evaluations) / budget));
      if (docking) state.progress = Math.max(state.progress, Math.min(90, 100 * docking.share()));
      search.report('evolving', Math.round(state.progress * 10) / 1000);
      continue;
    }
    if (assessSelection(search, state)) {
      state.stopReason = 'num_molecules_reached';
      break;
    }
  }
  return state;
}

/** One generation's children: library assemblies, crossovers (some then mutated) and mutations, scored. */
function breed(search: Search): Evaluated[] {
  const { rd, library, rng, evaluator, ops, population, archive } = search;
  const { options } = search.input;
  const budget = options.max_evaluations;
  const children: Evaluated[] = [];
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
  return children;
}

/**
 * Selects the returned set from the archive, tracks whether its mean score still improves and reports progress.
 * True when the run has converged.
 */
function assessSelection(search: Search, state: Evolution): boolean {
  const { evaluator, archive, docking } = search;
  const { num_molecules: target, options } = search.input;
  const budget = options.max_evaluations;
  const selected = selectDiverse(archive, target, options.similarity_cap);
  const mean = selected.length ? selected.reduce((s, e) => s + e.scores.total, 0) / selected.length : 0;
  if (selected.length >= target) {
    if (mean > state.best + 1e-3) {
      state.best = mean;
      state.stale = 0;
    } else {
      state.stale++;
    }
    // With docking, convergence on the surrogate is not the end while the search rounds still have budget:
    // each round's scores reshape the fitness the convergence was measured on.
    if (state.stale >= PATIENCE && !(docking?.roundsLeft() ?? false)) return true;
  }
  // progress: the larger of budget used and (diverse molecules found, then convergence), never going back
  const found = Math.min(1, selected.length / target);
  const estimate =
    100 *
    Math.max(evaluator.stats.evaluations / budget, 0.5 * found + 0.5 * found * Math.min(1, state.stale / PATIENCE));
  state.progress = Math.max(state.progress, Math.min(docking ? 90 : 99, estimate));
  if (docking) state.progress = Math.max(state.progress, Math.min(90, 100 * docking.share()));
  search.report('evolving', Math.round(state.progress * 10) / 1000);
  return false;
}

/**
 * Docking during and after the search. Every docked molecule should be returnable: nothing is docked above the
 * similarity cap to something docked before it or picked with it, or the returned set (diverse under the cap)
 * could hold only one of the two and the other call was spent for the trend alone.
 */
class SearchDocking {
  readonly rounds: DockingRounds;
  /** Calls kept for after the search. */
  private readonly reserve: number;
  private readonly perRound: number;

  constructor(
    private readonly search: Search,
    port: DockingPort,
  ) {
    const { options, num_molecules } = search.input;
    this.rounds = new DockingRounds(search.rd, port, options.docking_budget, options.docking_exhaustiveness);
    this.reserve = finalDockingReserve(num_molecules, options.docking_budget);
    this.perRound = Math.max(2, Math.ceil((options.docking_budget - this.reserve) / EXPECTED_ROUNDS));
  }

  /** Share of the docking budget spent. */
  share(): number {
    return this.rounds.stats.calls / Math.max(1, this.rounds.stats.budget);
  }

  /** Whether a search round still fits beside the final reserve. */
  roundsLeft(): boolean {
    return this.rounds.remaining - this.perRound >= this.reserve;
  }

  /** Up to `limit` passing, undocked candidates (in their order), none above the cap to a docked one or a pick. */
  spread(candidates: Evaluated[], limit: number): Evaluated[] {
    const cap = this.search.input.options.similarity_cap;
    const picks: Evaluated[] = [];
    for (const e of candidates) {
      if (picks.length >= limit) break;
      if (!e.passes || this.rounds.isDocked(e) || this.rounds.nearestDocked(e) > cap) continue;
      if (picks.some((p) => tanimoto(p.fp, e.fp) > cap)) continue;
      picks.push(e);
    }
    return picks;
  }

  /**
   * One docking round: the fittest undocked passing members, spread out by similarity; then every scored
   * molecule's docking estimate is refreshed, so that selection sees what docking taught.
   */
  async dockRound(pool: Evaluated[]): Promise<void> {
    if (!this.roundsLeft()) return;
    const picks = this.spread(
      [...pool].sort((a, b) => b.fitness - a.fitness),
      this.perRound,
    );
    if (picks.length === 0) return;
    await this.rounds.dock(picks, this.search.hooks.signal);
    this.search.check();
    this.refresh();
  }

  /** Puts the current docking estimate into every scored molecule's fitness. */
  refresh(): void {
    for (const e of this.search.archive) applyDockingTerm(e, this.rounds.term(e).term);
    for (const e of this.search.population) applyDockingTerm(e, this.rounds.term(e).term);
  }

  /**
   * After the search: dock whatever the diverse selection holds that is not docked yet, re-select with those
   * scores, and repeat until the selection is all docked or the budget is spent; then what the budget still
   * holds docks the next-best candidates by the estimate, a batch at a time. The returned set is chosen among
   * every docked molecule (search rounds included): the wider the field, the better the set.
   */
  async finish(progress: number): Promise<Evaluated[]> {
    const { rounds, search } = this;
    const { archive } = search;
    const { num_molecules: target, options } = search.input;
    const cap = options.similarity_cap;
    const dockPass = async (molecules: Evaluated[]) => {
      search.report('docking', Math.max(progress, Math.min(99, 90 + 9 * this.share())) / 100);
      const before = rounds.stats.calls;
      await rounds.dock(molecules, search.hooks.signal);
      this.refresh();
      return rounds.stats.calls > before;
    };
    for (let pass = 0; pass < 20 && rounds.remaining > 0; pass++) {
      search.check();
      const pending = selectDiverse(archive, target, options.similarity_cap).filter((e) => !rounds.isDocked(e));
      if (pending.length === 0 || !(await dockPass(pending))) break;
    }
    for (let pass = 0; pass < 50 && rounds.remaining > 0; pass++) {
      search.check();
      const undocked = archive.filter((e) => !rounds.isDocked(e) && rounds.nearestDocked(e) <= cap);
      const field = this.spread(selectDiverse(undocked, Math.min(rounds.remaining, target), cap), target);
      if (field.length === 0 || !(await dockPass(field))) break;
    }
    search.check();
    return selectDiverse(
      archive.filter((e) => rounds.isDocked(e)),
      target,
      options.similarity_cap,
    );
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
