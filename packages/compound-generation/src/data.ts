// The engine's committed data files (packages/compound-generation/data, see DATA_SOURCES.md), read once.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const dataDir = (() => {
  // src/data.ts and dist/src/data.js sit at different depths below the package root.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'data', 'qed-params.json'))) return join(dir, 'data');
    dir = dirname(dir);
  }
  throw new Error('compound-generation: data directory not found beside the package');
})();

export function readDataJson<T>(name: string): T {
  const raw = readFileSync(join(dataDir, name));
  return JSON.parse((name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')) as T;
}

/** A text file; a `.gz` one is decompressed. */
export function readDataText(name: string): string {
  const raw = readFileSync(join(dataDir, name));
  return (name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
}
