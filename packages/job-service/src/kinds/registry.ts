// The job kinds this service runs. Routes, queues and worker threads are all built from this one list,
// so adding an engine is an import plus an entry below.
import type { JobKind } from './job-kind.js';
import { demoKind } from './demo.js';
import { tdKind } from './td/index.js';
import { cgKind } from './cg/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyKind = JobKind<any, any, any>;

export const jobKinds: readonly AnyKind[] = [tdKind, cgKind, demoKind];

export function kindById(id: string): AnyKind | undefined {
  return jobKinds.find((k) => k.id === id);
}

export function kindOfJobId(jobId: string): AnyKind | undefined {
  const prefix = jobId.slice(0, jobId.indexOf('_'));
  return prefix ? kindById(prefix) : undefined;
}
