// A job kind for the thread-lifetime tests: its prepare and its run say which thread they ran on, so a test over
// HTTP can see idle threads end and new ones start. Not a production kind (loaded through config.kindModules).
import { threadId } from 'node:worker_threads';
import { Type, type Static } from '@sinclair/typebox';
import type { JobKind } from '../src/kinds/job-kind.js';

export const ThreadRequest = Type.Object({ label: Type.String({ maxLength: 20 }) }, { additionalProperties: false });
type ThreadRequest = Static<typeof ThreadRequest>;

export interface ThreadInput {
  label: string;
  prepared_on: number;
}
export interface ThreadResult extends ThreadInput {
  ran_on: number;
}

export const threadKind: JobKind<ThreadRequest, ThreadInput, ThreadResult> = {
  id: 'thread',
  route: '/v1/thread/run',
  requestSchema: ThreadRequest,
  prepare: (req) => ({ label: req.label, prepared_on: threadId }),
  estimateSeconds: () => [1, 2],
  run: async (input) => ({ ...input, ran_on: threadId }),
  toCsv: (r) => `label,prepared_on,ran_on\n${r.label},${r.prepared_on},${r.ran_on}\n`,
};

export default threadKind;
