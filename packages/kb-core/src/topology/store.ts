// Where computed topology and embeddings are kept: in memory, and for a base on a file, beside it
// (`<base>.topology.json`, `<base>.embeddings-<kind>.json`): derived data, always recomputable from the log, so
// a file that cannot be read is ignored. Typed arrays are stored as base64 of their bytes.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { writePrivateFile } from '../store/private-files.js';
import type { StoredEmbedding, StoredTopology } from './types.js';

type Kind = 'structural' | 'weighted';

export class TopologyStore {
  private topology: StoredTopology | undefined;
  private readonly embeddings = new Map<Kind, StoredEmbedding>();
  private loaded = false;

  /** `base`: the base's file path, or undefined to keep results in memory only (views, in-memory bases). */
  constructor(private readonly base: string | undefined) {}

  getTopology(): StoredTopology | undefined {
    this.load();
    return this.topology;
  }

  getEmbedding(kind: Kind): StoredEmbedding | undefined {
    this.load();
    return this.embeddings.get(kind);
  }

  setTopology(t: StoredTopology): void {
    this.topology = t;
    this.write('topology', {
      result: t.result,
      entity_ids: t.entity_ids,
      memberships: t.memberships.map((m) => toBase64(m)),
      basis: t.basis,
    });
  }

  setEmbedding(e: StoredEmbedding): void {
    this.embeddings.set(e.result.kind, e);
    this.write(`embeddings-${e.result.kind}`, {
      result: e.result,
      entity_ids: e.entity_ids,
      vectors: toBase64(e.vectors),
    });
  }

  /** What stats() reports: for each result, the log position it was computed at and whether that is the head. */
  status(logSeq: number) {
    this.load();
    const one = (r: { log_seq: number; computed_at: string } | undefined) =>
      r ? { log_seq: r.log_seq, computed_at: r.computed_at, current: r.log_seq === logSeq } : null;
    return {
      topology: one(this.topology?.result),
      structural_embeddings: one(this.embeddings.get('structural')?.result),
      weighted_embeddings: one(this.embeddings.get('weighted')?.result),
    };
  }

  private path(name: string): string | undefined {
    return this.base === undefined ? undefined : `${this.base}.${name}.json`;
  }

  private write(name: string, data: unknown): void {
    const p = this.path(name);
    if (!p) return;
    writePrivateFile(`${p}.tmp`, JSON.stringify(data));
    renameSync(`${p}.tmp`, p);
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    const read = (name: string): Record<string, unknown> | undefined => {
      const p = this.path(name);
      if (!p || !existsSync(p)) return undefined;
      try {
        return JSON.parse(readFileSync(p, 'utf8'));
      } catch {
        return undefined; // derived data: recompute rather than fail
      }
    };
    const t = read('topology');
    if (t && Array.isArray(t.memberships)) {
      this.topology = {
        result: t.result as StoredTopology['result'],
        entity_ids: t.entity_ids as string[],
        memberships: (t.memberships as string[]).map((b) => new Int32Array(fromBase64(b))),
        basis: t.basis as StoredTopology['basis'],
      };
    }
    for (const kind of ['structural', 'weighted'] as const) {
      const e = read(`embeddings-${kind}`);
      // A result without `warnings` was written before the SVD's fix of issue 36, whose values on small bases
      // need not be singular values at all: not served, so that the next read asks for a new computation.
      const fixed = Array.isArray((e?.result as { warnings?: unknown } | undefined)?.warnings);
      if (e && typeof e.vectors === 'string' && fixed) {
        this.embeddings.set(kind, {
          result: e.result as StoredEmbedding['result'],
          entity_ids: e.entity_ids as string[],
          vectors: new Float64Array(fromBase64(e.vectors)),
        });
      }
    }
  }
}

function toBase64(a: Int32Array | Float64Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

function fromBase64(s: string): ArrayBuffer {
  const b = Buffer.from(s, 'base64');
  const out = new ArrayBuffer(b.byteLength);
  new Uint8Array(out).set(b);
  return out;
}
