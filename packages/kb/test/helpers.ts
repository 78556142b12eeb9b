import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import type { ClaimInput } from '../src/index.js';

/** A fresh directory for one test; returns a path inside it and the cleanup. */
export function tempKb(name = 'test.kb'): { path: string; dir: string; cleanup(): void } {
  const d = tempDir('evident-kb-');
  return { path: join(d.path, name), dir: d.path, cleanup: d.cleanup };
}

export function claim(
  s: string, st: string, p: string, o: string, ot: string, source: string, extra: Partial<ClaimInput> = {}, sourceType = 'literature',
): ClaimInput {
  return { subject: [s, st], predicate: [p, 'association'], object: [o, ot], provenance: { source_type: sourceType, source_id: source }, ...extra };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
