// Where computed topology and embeddings are kept: in memory, and for a base on a file, beside it
// (`<base>.topology.json`, `<base>.embeddings-<kind>.json`, files 0600): derived data, always recomputable from the
// log. Each is written when it is computed (a temporary file renamed over the old one, so a kill -9 leaves the
// previous file or the new one, never half of one) and read back at the first read after an open, where it is
// served only when it is this log's (log-mark.ts: the claims and retractions it was computed over, checked
// against the index) and whole (each membership one topic per entity, every entity known to the base, ...).
// Anything else (another base's file, one from before a restore, a damaged or older-format file) is ignored: the
// reads then ask for a computation, as on a base that never had one. Typed arrays are stored as base64.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import type { ReadSnapshot } from '../graph/snapshot.js';
import { writePrivateFile } from '../store/private-files.js';
import { sideFile } from '../store/side-files.js';
import { logMark, matchesLog } from './log-mark.js';
import type { StoredEmbedding, StoredTopology } from './types.js';

type Kind = 'structural' | 'weighted';
type Counts = { claim_count: number; retraction_count: number };

/** Bumped when the files' layout changes; files of another format (format 1 had no log mark) are ignored. */
const FORMAT = 2;

export class TopologyStore {
  private topology: StoredTopology | undefined;
  private readonly embeddings = new Map<Kind, StoredEmbedding>();
  private loaded = false;

  /**
   * `base`: the base's file path, or undefined to keep results in memory only (views, in-memory bases).
   * `snapshot`: the base's index now, which a kept file is checked against and a mark is taken from.
   */
  constructor(
    private readonly base: string | undefined,
    private readonly snapshot: () => ReadSnapshot,
  ) {}

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
    if (!t.basis) return; // every computation has one; a result without cannot be checked at the next open
    this.write('topology', {
      format: FORMAT,
      log: logMark(this.snapshot(), t.basis),
      result: t.result,
      entity_ids: t.entity_ids,
      memberships: t.memberships.map((m) => toBase64(m)),
      basis: t.basis,
    });
  }

  /** `counts`: where the index stood when the embedding's graph was read. */
  setEmbedding(e: StoredEmbedding, counts: Counts): void {
    this.embeddings.set(e.result.kind, e);
    this.write(`embeddings-${e.result.kind}`, {
      format: FORMAT,
      log: logMark(this.snapshot(), counts),
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
    return this.base === undefined ? undefined : sideFile(this.base, `.${name}.json`);
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
    if (this.base === undefined) return;
    const s = this.snapshot();
    const read = (name: string): Record<string, unknown> | undefined => {
      const p = this.path(name);
      if (!p || !existsSync(p)) return undefined;
      try {
        const data = JSON.parse(readFileSync(p, 'utf8'));
        return data?.format === FORMAT && matchesLog(s, data.log) ? data : undefined;
      } catch {
        return undefined; // derived data: recompute rather than fail
      }
    };
    this.topology = keptTopology(read('topology'), s);
    for (const kind of ['structural', 'weighted'] as const) {
      const e = keptEmbedding(read(`embeddings-${kind}`), kind, s);
      if (e) this.embeddings.set(kind, e);
    }
  }
}

/** Whether every id names an entity of this base (a file of another base names others). */
function knownIds(ids: unknown, s: ReadSnapshot): ids is string[] {
  return Array.isArray(ids) && ids.every((id) => typeof id === 'string' && s.entityIndex.has(id));
}

/**
 * A kept topology as the reads need it, or undefined when any part is missing or inconsistent: one membership per
 * level over every entity it names, each entity in one of its level's topics, the topics listed as counted, and
 * the basis at the log mark's counts (checked by the caller against the index).
 */
function keptTopology(t: Record<string, unknown> | undefined, s: ReadSnapshot): StoredTopology | undefined {
  if (!t) return undefined;
  try {
    const result = t.result as StoredTopology['result'];
    const basis = t.basis as StoredTopology['basis'];
    const log = t.log as Counts;
    const ids = t.entity_ids;
    if (!basis || basis.claim_count !== log.claim_count || basis.retraction_count !== log.retraction_count) return;
    if (typeof basis.settings !== 'object' || basis.settings === null || !knownIds(ids, s)) return;
    if (!Array.isArray(result?.levels) || !Array.isArray(result.topics) || result.entity_count !== ids.length) return;
    if (!Array.isArray(t.memberships) || t.memberships.length !== result.levels.length) return;
    const memberships = (t.memberships as unknown[]).map((b) => new Int32Array(fromBase64(b as string)));
    for (let l = 0; l < memberships.length; l++) {
      const m = memberships[l]!;
      const count = result.levels[l]?.topic_count ?? -1;
      if (m.length !== ids.length || !Number.isInteger(count)) return;
      for (const c of m) if (!(c >= 0 && c < count)) return;
      if (result.topics.filter((x) => x?.level === l).length !== count) return;
    }
    if (result.topics.length !== result.levels.reduce((a, x) => a + x.topic_count, 0)) return;
    return { result, entity_ids: ids, memberships, basis };
  } catch {
    return undefined;
  }
}

/** A kept embedding of `kind`, or undefined unless whole: one vector of `dim` per entity it names, all known. */
function keptEmbedding(
  e: Record<string, unknown> | undefined,
  kind: Kind,
  s: ReadSnapshot,
): StoredEmbedding | undefined {
  if (!e) return undefined;
  try {
    const result = e.result as StoredEmbedding['result'];
    // A result without `warnings` was written before the SVD's fix of issue 36, whose values on small bases
    // need not be singular values at all: not served, so that the next read asks for a new computation.
    if (result?.kind !== kind || !Array.isArray(result.warnings) || typeof e.vectors !== 'string') return;
    if (!knownIds(e.entity_ids, s) || result.entity_count !== e.entity_ids.length) return;
    const vectors = new Float64Array(fromBase64(e.vectors));
    if (!Number.isInteger(result.dim) || vectors.length !== e.entity_ids.length * result.dim) return;
    return { result, entity_ids: e.entity_ids, vectors };
  } catch {
    return undefined;
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
