// A pose as SDF for viewers and downstream chemistry, by Open Babel. PDBQT has no bond orders and no non-polar
// hydrogens: Open Babel perceives bonds and orders from the 3D geometry, so the SDF holds the heavy atoms and the
// polar hydrogens Vina saw, in the docked coordinates.
import { DockingFailedError } from '../errors.js';
import { checkText, DOCKING_LIMITS, Problems } from '../limits.js';
import { moleculesConverted } from '../prepare/receptor.js';
import { runTool } from '../process/run.js';
import { type DockingTools, findDockingTools } from '../tools/find.js';
import { splitModels } from './pdbqt.js';

export async function poseToSdf(
  pdbqt: string,
  options: { tools?: DockingTools; signal?: AbortSignal; timeoutMs?: number; id?: string } = {},
): Promise<string> {
  const p = new Problems();
  checkText(pdbqt, '/pdbqt', DOCKING_LIMITS.ligandChars, p);
  p.throwIfAny();
  const tools = options.tools ?? (await findDockingTools());
  const step = 'pose to SDF (Open Babel)';
  const model = splitModels(pdbqt)[0] ?? '';
  const r = await runTool(tools.obabel.path, ['-ipdbqt', '-osdf'], {
    step,
    input: model,
    timeoutMs: options.timeoutMs ?? 60_000,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.id ? { ligand: options.id } : {}),
  });
  if (moleculesConverted(r.stderr) !== 1 || !r.stdout.includes('$$$$')) {
    throw new DockingFailedError('Open Babel did not convert the pose', {
      step,
      stderr: r.stderr,
      ...(options.id ? { ligand: options.id } : {}),
    });
  }
  return r.stdout;
}
