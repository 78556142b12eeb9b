// A job kind for the priority test: its prepare and its run say the nice value of the thread they ran on, and the
// run also that of a process it started (as the docking kind starts Vina). Not a production kind (loaded through
// config.kindModules).
import { execFile } from 'node:child_process';
import { getPriority } from 'node:os';
import { promisify } from 'node:util';
import { Type, type Static } from '@sinclair/typebox';
import type { JobKind } from '../src/kinds/job-kind.js';

export const PriorityRequest = Type.Object({ label: Type.String({ maxLength: 20 }) }, { additionalProperties: false });
type PriorityRequest = Static<typeof PriorityRequest>;

export interface PriorityInput {
  label: string;
  prepared_nice: number;
}
export interface PriorityResult extends PriorityInput {
  run_nice: number;
  child_nice: number;
}

/** The nice value of a process started from the calling thread (its main thread's, read by itself). */
async function childNice(): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    '-e',
    "process.stdout.write(String(require('node:os').getPriority()))",
  ]);
  return Number(stdout);
}

export const priorityKind: JobKind<PriorityRequest, PriorityInput, PriorityResult> = {
  id: 'priority',
  route: '/v1/priority/run',
  requestSchema: PriorityRequest,
  prepare: (req) => ({ label: req.label, prepared_nice: getPriority() }),
  estimateSeconds: () => [1, 2],
  run: async (input) => ({ ...input, run_nice: getPriority(), child_nice: await childNice() }),
  toCsv: (r) =>
    `label,prepared_nice,run_nice,child_nice\n${r.label},${r.prepared_nice},${r.run_nice},${r.child_nice}\n`,
};

export default priorityKind;
