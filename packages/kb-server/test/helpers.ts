import { join } from 'node:path';
import { tempDir } from '@evident/testkit';

/** A fresh directory for one test; returns a path inside it and the cleanup. */
export function tempKb(name = 'test.kb'): { path: string; dir: string; cleanup(): void } {
  const d = tempDir('evident-kb-');
  return { path: join(d.path, name), dir: d.path, cleanup: d.cleanup };
}
