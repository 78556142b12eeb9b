// Run-time estimate for a cg job, calibrated with packages/compound-generation's benchmark (npm run bench:chem):
// the GA costs about SECONDS_PER_EVALUATION per scored molecule (operators, RDKit parsing, descriptors, QED,
// SA, alerts); a run needs roughly EVALUATIONS_PER_MOLECULE scored molecules per requested one before it
// converges, bounded by the evaluation budget; depictions add a little per returned molecule. Benchmark of
// 2026-11-21 (2 shared cores): 100 molecules, 4,139 evaluations in 22-41 s (100-190 evaluations/s, by load).
import type { GenerationInput } from '@evident/compound-generation';

export const SECONDS_PER_EVALUATION = 0.008;
export const EVALUATIONS_PER_MOLECULE = 42;
const FIXED = 1.5; // RDKit WASM start-up, data tables, initial population

export function estimateCgSeconds(input: GenerationInput): [number, number] {
  const minimum = input.options.population_size * 8;
  const expected = Math.min(
    input.options.max_evaluations,
    Math.max(minimum, EVALUATIONS_PER_MOLECULE * input.num_molecules),
  );
  const s = FIXED + expected * SECONDS_PER_EVALUATION + input.num_molecules * 0.01;
  const worst = FIXED + input.options.max_evaluations * SECONDS_PER_EVALUATION * 1.5;
  return [Math.max(1, s * 0.6), Math.max(s * 2, Math.min(worst, s * 4))];
}
