// The job kinds this service runs. Routes, queues and worker threads are all built from this one list,
// so adding an engine is an import plus an entry below. Further kinds (the tests' demo kind) are loaded from
// modules named in the configuration; a server serves the production kinds plus the ones it was configured with.
import { pathToFileURL } from 'node:url';
import type { JobKind } from './job-kind.js';
import { tdKind } from './td/index.js';
import { cgKind } from './cg/index.js';

/** A kind of any request, input and result (JobKind's methods are bivariant in their parameters). */
export type AnyKind = JobKind<unknown, unknown, unknown>;

/** The production kinds. */
export const jobKinds: readonly AnyKind[] = [tdKind, cgKind];

/** Kinds loaded from modules in this process (or thread), by id. */
const loaded = new Map<string, AnyKind>();

export function kindById(id: string): AnyKind | undefined {
  return jobKinds.find((k) => k.id === id) ?? loaded.get(id);
}

/**
 * The production kinds plus those whose modules are named (paths or file: URLs; each default-exports a JobKind).
 * A loaded kind stays known to this process (its threads may still run queued jobs of it).
 */
export async function loadJobKinds(modules: readonly string[] = []): Promise<readonly AnyKind[]> {
  const extra: AnyKind[] = [];
  for (const m of modules) {
    const url = /^[a-z][a-z0-9+.-]*:/i.test(m) && !/^[a-z]:[\\/]/i.test(m) ? m : pathToFileURL(m).href;
    const kind = ((await import(url)) as { default?: AnyKind }).default;
    if (!kind || typeof kind.id !== 'string' || typeof kind.run !== 'function') {
      throw new Error(`job kind module ${m} has no JobKind as its default export`);
    }
    if (jobKinds.some((k) => k.id === kind.id)) throw new Error(`job kind module ${m}: kind ${kind.id} exists already`);
    loaded.set(kind.id, kind);
    extra.push(kind);
  }
  return [...jobKinds, ...extra];
}
