// Run-time estimate for a cg job, calibrated with the engines' benchmarks. Two parts:
// - the search: about SECONDS_PER_EVALUATION per scored molecule (operators, RDKit parsing, descriptors, QED, SA,
//   alerts); a run needs roughly EVALUATIONS_PER_MOLECULE scored molecules per requested one before it converges,
//   bounded by the evaluation budget (npm run bench:chem, 2026-11-21: 100 molecules, 4,139 evaluations in 22-41 s);
// - docking (when on): the schedule of packages/compound-generation (the whole docking budget, every call at the
//   requested exhaustiveness), each call costing ligand preparation + Vina's grid
//   maps + a part proportional to exhaustiveness (packages/docking README, "Cost": CPU seconds for a ~25-heavy-atom
//   ligand on the 2SRC pocket), run DOCKING_CONCURRENCY at a time; plus the structure download and receptor
//   preparation once.
import { availableParallelism } from 'node:os';
import type { GenerationInput } from '@evident/compound-generation';
import type { CgScoringInput } from './scoring-run.js';

export const SECONDS_PER_EVALUATION = 0.008;
export const EVALUATIONS_PER_MOLECULE = 42;
const FIXED = 1.5; // RDKit WASM start-up, data tables, initial population

/** CPU seconds of one docking call: ligand preparation, grid maps, and per unit of exhaustiveness. */
export const DOCKING_CALL = { prepare: 8, maps: 3, perExhaustiveness: 2.5 };
/** Structure download (when not in the request) and receptor preparation. */
const TARGET_SETUP = 8;
/** Docking calls in flight at once: the docking session's default (cores - 1, at least 1). */
const DOCKING_CONCURRENCY = Math.max(1, availableParallelism() - 1);

export function dockingSeconds(input: GenerationInput): number {
  const o = input.options;
  if (!o.docking) return 0;
  const call = (exhaustiveness: number) =>
    DOCKING_CALL.prepare + DOCKING_CALL.maps + DOCKING_CALL.perExhaustiveness * exhaustiveness;
  return TARGET_SETUP + (o.docking_budget * call(o.docking_exhaustiveness)) / DOCKING_CONCURRENCY;
}

export function estimateCgSeconds(input: GenerationInput): [number, number] {
  const minimum = input.options.population_size * 8;
  const expected = Math.min(
    input.options.max_evaluations,
    Math.max(minimum, EVALUATIONS_PER_MOLECULE * input.num_molecules),
  );
  const s = FIXED + expected * SECONDS_PER_EVALUATION + input.num_molecules * 0.01;
  const worst = FIXED + input.options.max_evaluations * SECONDS_PER_EVALUATION * 1.5;
  const docking = dockingSeconds(input);
  // Docking usually spends its budget: the low end is 60 % of it (faster machine or smaller ligands), the high
  // end twice it (a loaded machine, flexible ligands).
  return [Math.max(1, s * 0.6 + docking * 0.6), Math.max(s * 2, Math.min(worst, s * 4)) + docking * 2];
}

/**
 * With a scoring profile: per oracle call, the optimizer's own work plus the profile's RDKit components, 2-14 ms
 * per molecule on this machine (packages/compound-generation README, 'Scoring profiles'), and about 0.08 s per
 * call for the default optimizer under load (evident-design, 300 calls of qed: 24 s on the shared 2-core machine).
 * An external scorer's cost is the operator's: not counted.
 */
export function estimateScoringSeconds(input: CgScoringInput): [number, number] {
  const calls = input.budget.max_oracle_calls;
  return [Math.max(1, FIXED + calls * 0.005), Math.max(10, FIXED + calls * 0.1)];
}
