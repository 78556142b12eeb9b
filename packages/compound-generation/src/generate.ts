// The engine's entry point: validated input in, results document out.
import { CompoundGenerationError } from './errors.js';
import { runGeneticAlgorithm, type RunHooks } from './generation/ga.js';
import { loadRDKit } from './rdkit.js';
import { validateRequest, type GenerationInput } from './request.js';
import { buildResult, type GenerationResult } from './results.js';
import type { DockingPort, TargetSummary } from './target/port.js';

export interface GenerationHooks extends RunHooks {
  /**
   * The docking engine and the target as resolved, required when options.docking is on: the service (or a
   * caller with @evident/docking) prepares the receptor and pocket and hands them over; the engine stays pure.
   */
  target?: { port: DockingPort; summary: TargetSummary };
}

/** Runs a generation for a validated input (see validateRequest). */
export async function generateFromInput(
  input: GenerationInput,
  hooks: GenerationHooks = {},
): Promise<GenerationResult> {
  const t0 = performance.now();
  if (input.options.docking && !hooks.target) {
    throw new CompoundGenerationError(
      'docking_unavailable',
      'options.docking is on but no docking engine was given: run through the job service, pass hooks.target ' +
        '(see @evident/docking), or set options.docking to false',
    );
  }
  const rd = await loadRDKit();
  const port = input.options.docking ? hooks.target!.port : null;
  const run = await runGeneticAlgorithm(input, hooks, port);
  hooks.progress?.('depicting', 0.99);
  const result = buildResult(rd, input, {
    selected: run.selected,
    stats: run.evaluator.stats,
    stopReason: run.stopReason,
    generations: run.generations,
    initial: run.initial,
    runtimeS: (performance.now() - t0) / 1000,
    docking: run.docking,
    target: input.options.docking ? hooks.target!.summary : null,
    dockingDescription: port?.describe() ?? null,
  });
  hooks.progress?.('done', 1);
  return result;
}

/** Validates a raw request (InvalidRequestError names the fields) and runs it. */
export async function generateCompounds(request: unknown, hooks: GenerationHooks = {}): Promise<GenerationResult> {
  return generateFromInput(await validateRequest(request), hooks);
}
