import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in packages/testkit/src or packages/testkit/dist/src). */
export const repoRoot = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'packages', 'testkit'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('testkit: cannot find the repository root');
    dir = up;
  }
  return dir;
})();

/** Reference data shared beside the repository (../shared/reference). Tests and benchmarks only. */
export function referencePath(...parts: string[]): string {
  const p = resolve(repoRoot, '..', 'shared', 'reference', ...parts);
  if (!existsSync(p)) throw new Error(`reference data missing: ${p} (expected ../shared beside the repository)`);
  return p;
}

/** Where tests write artefacts a person may want to look at (screenshots, plots). Git-ignored. */
export function testOutputPath(...parts: string[]): string {
  return join(repoRoot, '.test-output', ...parts);
}

/** A fresh temporary directory; call the returned cleanup when done. */
export function tempDir(prefix = 'evident-'): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  // Retries: a file another thread or process is still writing there makes one pass fail with ENOTEMPTY.
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }) };
}
