// The default optimizer: a graph GA tuned as Mol GA (Tripp and Hernández-Lobato, "Genetic algorithms are strong
// baselines for molecule generation", 2023), with a surrogate choosing which offspring are scored.
// - Population: every molecule scored so far (Mol GA keeps the best 10,000, i.e. all of a PMO run).
// - Parents: Mol GA's quantile-uniform sampling: for 25 quantiles 1 - 10^x, x from -3 to 0, equally many
//   parents drawn uniformly from the molecules above that quantile, so the best 0.1% to the whole population
//   are all sampled, weighted toward the top.
// - Offspring: Mol GA's blend: 10% mutations of one parent, the rest Graph GA crossovers of two (mutation rate
//   0.01), with Jensen's operators and size rule; small batches scored per generation.
// - Surrogate screening: `oversample` times the batch is generated; a kNN Tanimoto model trained on all calls so
//   far (./surrogate.ts) ranks them by predicted score plus an exploration bonus for distance from anything
//   scored (an upper confidence bound), as batch BO and active-learning screens choose what to score.
// - Diversity: a batch takes no two molecules above `batch_similarity` Tanimoto to each other.
// - Restarts from the best: after `patience` calls without a better top-10 mean, parents come from the best
//   `restart_elite` molecules only, mutated, for one batch in two until the top-10 improves.
// MOL_GA_SETTINGS are tuned for PMO's 10,000 calls; optimize() runs molGaSettingsFor(budget) (./budget-settings.ts),
// which scales start, surrogate warm-up and batch down for budgets under 1,500 calls and is these settings above.
import type { Fingerprint } from '../chem/fingerprint.js';
import { tanimoto } from '../chem/fingerprint.js';
import type { Random } from '../generation/prng.js';
import { GraphOperators } from './graph-operators.js';
import type { Scored, Search } from './search.js';
import { fingerprintOf, KnnSurrogate, molFingerprint } from './surrogate.js';
import type { OptimizeStopReason } from './types.js';

export interface MolGaSettings {
  /** Molecules drawn from the pool and scored first. */
  start_size: number;
  /** Molecules scored per generation. */
  batch_size: number;
  /** Offspring generated per molecule scored (1: no surrogate screening). */
  oversample: number;
  /** Share of offspring made by mutation alone (Mol GA: 0.1). */
  mutate_fraction: number;
  /** Mutation rate after a crossover (Mol GA: 0.01). */
  crossover_mutation_rate: number;
  /** Weight of the exploration bonus (1 - nearest similarity) in the acquisition. */
  exploration: number;
  /** Calls scored before the surrogate is trusted. */
  surrogate_warmup: number;
  batch_similarity: number;
  /** A candidate whose nearest scored molecule is above this Tanimoto is not scored (1: no limit). */
  novelty_similarity: number;
  patience: number;
  restart_elite: number;
  /** Generations without one new molecule before the run gives up. */
  max_idle_generations: number;
  /** Jensen's ring crossover as well as the non-ring one (./graph-operators.ts). */
  ring_crossover: boolean;
}

export const MOL_GA_SETTINGS: Readonly<MolGaSettings> = {
  start_size: 150,
  batch_size: 25,
  oversample: 4,
  mutate_fraction: 0.1,
  crossover_mutation_rate: 0.01,
  exploration: 0.1,
  surrogate_warmup: 100,
  batch_similarity: 0.85,
  novelty_similarity: 1,
  patience: 1000,
  restart_elite: 10,
  max_idle_generations: 50,
  ring_crossover: false,
};

/** Mol GA's quantiles: 1 - logspace(-3, 0, 25). */
const QUANTILES = Array.from({ length: 25 }, (_, i) => 1 - 10 ** (-3 + (3 * i) / 24));

/**
 * Mol GA's quantile-uniform sampling over a population sorted best first: n parents, equally many per quantile,
 * each uniform among the molecules scoring at least that quantile (numpy's linear quantile).
 */
export function quantileUniformSample(sorted: readonly Scored[], n: number, rng: Random): string[] {
  const len = sorted.length;
  const per = Math.ceil(n / QUANTILES.length);
  const out: string[] = [];
  for (const q of QUANTILES) {
    // Ascending index q*(len-1) of the descending array.
    const pos = q * (len - 1);
    const lo = Math.floor(pos);
    const a = sorted[len - 1 - lo]!.score;
    const b = sorted[len - 1 - Math.min(len - 1, lo + 1)]!.score;
    const threshold = a + (b - a) * (pos - lo);
    // How many score at least the threshold (binary search over the descending scores).
    let lo2 = 0;
    let hi = len;
    while (lo2 < hi) {
      const mid = (lo2 + hi) >>> 1;
      if (sorted[mid]!.score >= threshold - 1e-12) lo2 = mid + 1;
      else hi = mid;
    }
    const m = Math.max(1, lo2);
    for (let i = 0; i < per; i++) out.push(sorted[rng.int(m)]!.smiles);
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, n);
}

interface Candidate {
  smiles: string;
  fp: Fingerprint;
  acquisition: number;
}

export async function runMolGa(
  search: Search,
  pool: readonly string[],
  rng: Random,
  settings: MolGaSettings = MOL_GA_SETTINGS,
): Promise<OptimizeStopReason> {
  const ops = new GraphOperators(search.rd, settings.ring_crossover);
  const surrogate = new KnnSurrogate();
  const fps = new Map<string, Fingerprint | null>();
  const fpOf = (s: string) => {
    let f = fps.get(s);
    if (f === undefined) {
      f = fingerprintOf(search.rd, s);
      fps.set(s, f);
    }
    return f;
  };
  // The population, best first (ties: earlier call first).
  const population: Scored[] = [];
  const known = new Set<string>();
  const admit = (scored: Scored[]) => {
    for (const s of scored) {
      if (known.has(s.smiles)) continue;
      known.add(s.smiles);
      let i = population.length;
      while (i > 0 && population[i - 1]!.score < s.score) i--;
      population.splice(i, 0, s);
      const f = fpOf(s.smiles);
      if (f) surrogate.add(f, s.score);
    }
  };
  if (settings.oversample > 1) {
    ops.onChild = (smiles, mol) => {
      if (!fps.has(smiles)) fps.set(smiles, molFingerprint(mol));
    };
  }
  const top10 = () => {
    const t = population.slice(0, 10);
    return t.length ? t.reduce((a, b) => a + b.score, 0) / t.length : 0;
  };
  try {
    admit(await search.score(drawStart(search, pool, rng, settings.start_size)));
    let best10 = top10();
    let lastImprovement = search.used;
    let idle = 0;
    let generation = 0;
    while (!search.exhausted) {
      await search.checkpoint();
      if (population.length === 0) return 'no_progress';
      generation++;
      const batch = Math.min(settings.batch_size, search.oracle.remaining);
      const stuck = search.used - lastImprovement >= settings.patience;
      const restart = stuck && generation % 2 === 0;
      const useSurrogate = settings.oversample > 1 && surrogate.size >= settings.surrogate_warmup;
      const want = useSurrogate ? batch * settings.oversample : batch;
      const offspring = restart
        ? mutateElite(population.slice(0, settings.restart_elite), want, ops, rng)
        : blend(quantileUniformSample(population, 2 * want, rng), want, ops, rng, settings);
      // New molecules only (a repeat costs nothing but teaches nothing), admitted by the caller's filter.
      const fresh = [...new Set(offspring)].filter((s) => !known.has(s) && !search.seen(s) && search.admits(s));
      const chosen = useSurrogate ? choose(fresh, batch, surrogate, fpOf, settings) : fresh.slice(0, batch);
      const before = search.used;
      admit(await search.score(chosen));
      idle = search.used > before ? 0 : idle + 1;
      if (idle >= settings.max_idle_generations) return 'no_progress';
      const now = top10();
      if (now > best10 + 1e-12) {
        best10 = now;
        lastImprovement = search.used;
      }
    }
    return 'budget_exhausted';
  } finally {
    ops.dispose();
  }
}

/** Draws a molecule refused by the caller's filter at most this many times per start molecule wanted. */
const REFUSED_DRAWS_PER_START = 100;

/**
 * The start: `size` distinct molecules of the pool that the caller's filter admits, in the order drawn. A refused
 * molecule costs no call, so it does not count against the start (with docking's filters a start of 20 is 20
 * scored molecules, not the few of 20 draws that pass); without a filter this is Mol GA's plain draw.
 */
function drawStart(search: Search, pool: readonly string[], rng: Random, size: number): string[] {
  const start: string[] = [];
  let tries = 0;
  let refused = 0;
  while (tries < size * 3 && start.length < size && refused < size * REFUSED_DRAWS_PER_START) {
    const c = search.canonical(rng.pick(pool));
    if (c && !start.includes(c)) {
      if (!search.admits(c)) {
        refused++;
        continue;
      }
      start.push(c);
    }
    tries++;
  }
  return start;
}

/** Mol GA's offspring blend: the first 10% of the parents mutated alone, the rest crossed with a shuffled copy. */
function blend(parents: string[], n: number, ops: GraphOperators, rng: Random, settings: MolGaSettings): string[] {
  const nMutate = Math.floor(n * settings.mutate_fraction);
  const out: string[] = [];
  for (const p of parents.slice(0, nMutate)) {
    const c = ops.mutate(p, 1, rng);
    if (c) out.push(c);
  }
  const cross = parents.slice(nMutate);
  const partners = [...cross];
  for (let i = partners.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [partners[i], partners[j]] = [partners[j]!, partners[i]!];
  }
  for (let i = 0; i < n - nMutate && i < cross.length; i++) {
    const c = ops.crossover(cross[i]!, partners[i]!, rng);
    const m = c === null ? null : ops.mutate(c, settings.crossover_mutation_rate, rng);
    if (m) out.push(m);
  }
  return out;
}

/** Local moves around the best molecules: mutations, and crossovers among them. */
function mutateElite(elite: readonly Scored[], n: number, ops: GraphOperators, rng: Random): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = rng.pick(elite).smiles;
    const c = rng.chance(0.7) ? ops.mutate(a, 1, rng) : ops.crossover(a, rng.pick(elite).smiles, rng);
    if (c) out.push(c);
  }
  return out;
}

/** The batch by acquisition (predicted score + exploration bonus), no two above the batch similarity. */
function choose(
  fresh: string[],
  batch: number,
  surrogate: KnnSurrogate,
  fpOf: (s: string) => Fingerprint | null,
  settings: MolGaSettings,
): string[] {
  const cands: Candidate[] = [];
  for (const smiles of fresh) {
    const fp = fpOf(smiles);
    if (!fp) continue;
    const p = surrogate.predict(fp);
    if (p.nearest > settings.novelty_similarity) continue;
    cands.push({ smiles, fp, acquisition: p.mean + settings.exploration * (1 - p.nearest) });
  }
  cands.sort((a, b) => b.acquisition - a.acquisition);
  const picked: Candidate[] = [];
  for (const c of cands) {
    if (picked.length >= batch) break;
    if (picked.some((p) => tanimoto(p.fp, c.fp) > settings.batch_similarity)) continue;
    picked.push(c);
  }
  return picked.map((c) => c.smiles);
}
