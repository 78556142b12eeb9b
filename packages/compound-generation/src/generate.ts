// The engine's entry point: validated input in, results document out.
import { runGeneticAlgorithm, type RunHooks } from './generation/ga.js';
import { loadRDKit } from './rdkit.js';
import { validateRequest, type GenerationInput } from './request.js';
import { buildResult, type GenerationResult } from './results.js';

/** Runs a generation for a validated input (see validateRequest). */
export async function generateFromInput(input: GenerationInput, hooks: RunHooks = {}): Promise<GenerationResult> {
  const t0 = performance.now();
  const rd = await loadRDKit();
  const run = await runGeneticAlgorithm(input, hooks);
  hooks.progress?.('depicting', 0.99);
  const result = buildResult(rd, input, {
    selected: run.selected,
    stats: run.evaluator.stats,
    stopReason: run.stopReason,
    generations: run.generations,
    initial: run.initial,
    runtimeS: (performance.now() - t0) / 1000,
  });
  hooks.progress?.('done', 1);
  return result;
}

/** Validates a raw request (InvalidRequestError names the fields) and runs it. */
export async function generateCompounds(request: unknown, hooks: RunHooks = {}): Promise<GenerationResult> {
  return generateFromInput(await validateRequest(request), hooks);
}
