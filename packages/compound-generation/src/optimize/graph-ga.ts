// Graph GA as PMO runs it (Jensen 2019; wenhao-gao/mol_opt, main/graph_ga/run.py, with the paper's settings:
// population 120, offspring 70, mutation rate 0.067). The first population is drawn from the pool with
// replacement; each generation draws a mating pool of 70 with probability proportional to score, makes 70
// children, and keeps the 120 best distinct molecules of population + children. The run ends when the budget
// is spent, or by the paper's rule when the population is unchanged for 5 generations.
import type { Random } from '../generation/prng.js';
import { GraphOperators } from './graph-operators.js';
import type { Scored, Search } from './search.js';
import type { OptimizeStopReason } from './types.js';

export interface GraphGaSettings {
  population_size: number;
  offspring_size: number;
  mutation_rate: number;
  /** Generations with an unchanged population before the run stops. */
  patience: number;
}

export const GRAPH_GA_SETTINGS: Readonly<GraphGaSettings> = {
  population_size: 120,
  offspring_size: 70,
  mutation_rate: 0.067,
  patience: 5,
};

/** Draws n with replacement, with probability proportional to score (PMO's make_mating_pool). */
export function scoreProportional(population: readonly Scored[], n: number, rng: Random): string[] {
  const weights = population.map((p) => p.score + 1e-10);
  return Array.from({ length: n }, () => population[rng.weighted(weights)]!.smiles);
}

/** The best `size` distinct molecules, best first (ties: earlier call first). */
export function best(scored: Iterable<Scored>, size: number): Scored[] {
  const byKey = new Map<string, Scored>();
  for (const s of scored) byKey.set(s.smiles, s);
  return [...byKey.values()].sort((a, b) => b.score - a.score || a.call - b.call).slice(0, size);
}

export async function runGraphGa(
  search: Search,
  pool: readonly string[],
  rng: Random,
  settings: GraphGaSettings = GRAPH_GA_SETTINGS,
): Promise<OptimizeStopReason> {
  const ops = new GraphOperators(search.rd);
  try {
    const start: string[] = [];
    for (let i = 0; i < settings.population_size; i++) {
      const c = search.canonical(rng.pick(pool));
      if (c) start.push(c);
    }
    let population = best(await search.score(start), settings.population_size);
    let unchanged = 0;
    while (!search.exhausted) {
      await search.checkpoint();
      if (population.length === 0) return 'no_progress';
      const mating = scoreProportional(population, settings.offspring_size, rng);
      const children: string[] = [];
      for (let i = 0; i < settings.offspring_size; i++) {
        const child = ops.reproduce(mating, settings.mutation_rate, rng);
        if (child) children.push(child);
      }
      const scored = await search.score(children);
      const next = best([...population, ...scored], settings.population_size);
      const same = next.length === population.length && next.every((m, i) => m.smiles === population[i]!.smiles);
      population = next;
      unchanged = same ? unchanged + 1 : 0;
      if (unchanged >= settings.patience && !search.exhausted) return 'no_progress';
    }
    return 'budget_exhausted';
  } finally {
    ops.dispose();
  }
}
