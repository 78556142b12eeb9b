// A provider's vectors kept beside the base file (`<base>.vectors/`), so a restart does not pay the provider
// again: saved at close, loaded at open when the provider, model and dimension match and every saved key is a
// fact or entity the log still has (facts and entities are numbered by log order, so a key names the same one
// in every replay of the same log). Anything else is stale and ignored: the vectors are rebuilt from the log,
// in the background, like any pending work. The local embedder's vectors are not kept: they are recomputed from
// the log at open (learning the base is the method), while search answers lexically and reports `pending`.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmbeddingQueue } from './queue.js';

interface Meta {
  provider: string;
  model: string;
  dim: number;
  facts: number;
  entities: number;
}

export function vectorsDir(base: string): string {
  return `${base}.vectors`;
}

/** Saves a provider's vectors (no-op for the local embedder). Written to a temporary directory, then renamed. */
export function saveVectors(q: EmbeddingQueue, base: string): void {
  if (!q.port) return;
  const dir = vectorsDir(base);
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const meta: Meta = { provider: q.port.provider, model: q.port.model, dim: q.port.dim, facts: 0, entities: 0 };
  for (const [name, lane] of [
    ['facts', q.facts],
    ['entities', q.entities],
  ] as const) {
    const keys = lane.vectors.keyList();
    meta[name] = keys.length;
    writeFileSync(join(tmp, `${name}.keys`), Buffer.from(keys.buffer, keys.byteOffset, keys.byteLength));
    if (keys.length) lane.vectors.save(join(tmp, `${name}.usearch`));
  }
  writeFileSync(join(tmp, 'meta.json'), JSON.stringify(meta));
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
}

/** Loads saved vectors when they fit; returns whether it did. `facts`/`entities`: how many the log holds. */
export function loadVectors(q: EmbeddingQueue, base: string, facts: number, entities: number): boolean {
  const dir = vectorsDir(base);
  if (!q.port || !existsSync(join(dir, 'meta.json'))) return false;
  try {
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Meta;
    if (meta.provider !== q.port.provider || meta.model !== q.port.model || meta.dim !== q.port.dim) return false;
    const loaded: [typeof q.facts, Int32Array, string][] = [];
    for (const [name, lane, limit] of [
      ['facts', q.facts, facts],
      ['entities', q.entities, entities],
    ] as const) {
      const buf = readFileSync(join(dir, `${name}.keys`));
      const keys = new Int32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
      if (keys.length !== meta[name] || (keys.length && keys[keys.length - 1]! >= limit)) return false;
      loaded.push([lane, keys, join(dir, `${name}.usearch`)]);
    }
    for (const [lane, keys, path] of loaded) {
      if (keys.length) lane.vectors.load(path, keys);
      lane.dropIndexed();
    }
    return true;
  } catch {
    // A damaged file is a missing one: the vectors are rebuilt.
    return false;
  }
}
