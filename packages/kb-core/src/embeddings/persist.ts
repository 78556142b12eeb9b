// Vectors kept beside the base file (`<base>.vectors/`), so a restart neither pays a provider again nor redoes
// the local embedder's work: saved at close, loaded at open when the embedder (provider, model, dimension)
// matches and every saved key is a fact or entity the log still has (facts and entities are numbered by log
// order, so a key names the same one in every replay of the same log). The local embedder's vectors are a
// function of what it had learnt, so its learner is saved with them (token document frequencies and context
// vectors) and restored, after a check that the facts it learnt are this log's. Anything else is stale and
// ignored: the vectors are rebuilt from the log in the background, like any pending work.
import { closeSync, existsSync, fstatSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivate, makePrivateDir, writePrivateFile } from '../store/private-files.js';
import { sideFile } from '../store/side-files.js';
import { readAt } from '../store/section-file.js';
import { BinaryVectorSet } from './binary-set.js';
import { TwoTierVectorSet } from './two-tier.js';
import type { EmbeddingQueue } from './queue.js';
import { textHash } from '../store/shared-vectors.js';

interface LearnerMeta {
  docs: number;
  learned: number;
  /** The vectors' generation (queue.ts). */
  generation: number;
  /** Hash of the tokens of the last fact learnt, as the log gives them at save time. */
  last_fact: string;
}

interface Meta {
  provider: string;
  model: string;
  dim: number;
  facts: number;
  entities: number;
  learner?: LearnerMeta;
}

export function vectorsDir(base: string): string {
  return sideFile(base, '.vectors');
}

/** Where the previous save waits while a new one is renamed into place (see saveVectors). */
const previousDir = (base: string) => `${vectorsDir(base)}.old`;

/**
 * The HNSW index's file, named apart from the former `<name>.usearch` since indexes hold i8 vectors ranked by
 * exact rows saved beside them (vectors.ts): code from before reads `<name>.usearch` only, so it finds no index in
 * a newer save and rebuilds, instead of taking i8 inner products for similarities. (An f16 index loaded from an
 * older save keeps its kind when saved again under this name; the next re-embedding pass makes it i8.)
 */
const indexFile = (name: string) => `${name}.i8.usearch`;
/**
 * The local lanes' binary codes when asked for (lane.ts; binary-set.ts), exact rows beside them. An HNSW lane
 * (earlier code, or the option off) finds no index in such a save and rebuilds; a binary lane reads an i8 save's
 * exact rows (`indexFile`) and makes their codes, and rebuilds from an f16 one (no rows).
 */
const codesFile = (name: string) => `${name}.codes`;
// Two-tier lanes (the local default, two-tier.ts) save codes and rows under `codesFile` and their HNSW beside them
// (`.codes.hnsw`, with its keys and build state) once the build has begun: an open resumes the build where it
// stopped. They read an HNSW lane's i8 save too (codes made from its rows, the index complete); an HNSW lane finds
// no `indexFile` in theirs and rebuilds, as from a binary one.
const codesKind = (set: unknown) => set instanceof BinaryVectorSet || set instanceof TwoTierVectorSet;

function bytes(a: Int32Array | Float32Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * A file of 4-byte values read straight into the array that keeps them: one allocation, no copy (a Buffer then a
 * copy of its bytes was 200 MB allocated and 100 MB copied for a million-claim base's learner, and the collector
 * ran over it: 20% of a reopen).
 */
function readInto<A extends Int32Array | Float32Array>(path: string, make: (n: number) => A): A {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size % 4 !== 0) throw new RangeError(`${path}: ${size} bytes is not a whole number of values`);
    const out = make(size / 4);
    if (!readAt(fd, new Uint8Array(out.buffer, out.byteOffset, size), 0)) throw new RangeError(`${path}: cut short`);
    return out;
  } finally {
    closeSync(fd);
  }
}

const readInt32 = (path: string) => readInto(path, (n) => new Int32Array(n));
const readFloat32 = (path: string) => readInto(path, (n) => new Float32Array(n));

function embedderOf(q: EmbeddingQueue): { provider: string; model: string; dim: number } {
  return q.port
    ? { provider: q.port.provider, model: q.port.model, dim: q.port.dim }
    : { provider: q.local.provider, model: q.local.model, dim: q.local.dim };
}

function learnerCheck(q: EmbeddingQueue, learned: number): string {
  return learned === 0 ? '' : textHash(q.factTokens(learned - 1).join(' '));
}

/**
 * Saves the vectors (and the local learner): at close, and as checkpoints while a catch-up runs
 * (startCheckpoints). Written to a temporary directory, then renamed into place, the previous save kept until
 * the new one is there, so a kill -9 at any point leaves one whole save (loadVectors reads the previous one if
 * the new one was not renamed yet); 0700 and 0600. During a re-embedding pass the set being filled is saved,
 * not the one it replaces: with the learner it was computed from, the next open finishes the pass (the keys it
 * lacks are pending again) rather than keep vectors of an older generation.
 */
export function saveVectors(q: EmbeddingQueue, base: string): void {
  const dir = vectorsDir(base);
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  makePrivateDir(tmp);
  const meta: Meta = { ...embedderOf(q), facts: 0, entities: 0 };
  for (const [name, lane] of [
    ['facts', q.facts],
    ['entities', q.entities],
  ] as const) {
    const set = lane.filling;
    const keys = set.keyList();
    meta[name] = keys.length;
    writePrivateFile(join(tmp, `${name}.keys`), bytes(keys));
    const file = codesKind(set) ? codesFile(name) : indexFile(name);
    if (keys.length) for (const f of set.save(join(tmp, file))) makePrivate(f);
  }
  if (!q.port) {
    const { learned, generation } = q.learnerProgress();
    const st = q.local.exportState();
    meta.learner = { docs: st.docs, learned, generation, last_fact: learnerCheck(q, learned) };
    writePrivateFile(join(tmp, 'learner.tokens.json'), JSON.stringify(st.tokens));
    writePrivateFile(join(tmp, 'learner.df'), bytes(st.df));
    writePrivateFile(join(tmp, 'learner.rows'), bytes(st.context_rows));
    writePrivateFile(join(tmp, 'learner.context'), bytes(st.context));
  }
  writePrivateFile(join(tmp, 'meta.json'), JSON.stringify(meta));
  const previous = previousDir(base);
  if (existsSync(dir)) {
    rmSync(previous, { recursive: true, force: true });
    renameSync(dir, previous);
  }
  renameSync(tmp, dir);
  rmSync(previous, { recursive: true, force: true });
}

/** Loads saved vectors when they fit; returns whether it did. `facts`/`entities`: how many the log holds. */
export function loadVectors(q: EmbeddingQueue, base: string, facts: number, entities: number): boolean {
  // The previous save, when a kill came between the two renames of saveVectors.
  const dir = [vectorsDir(base), previousDir(base)].find((d) => existsSync(join(d, 'meta.json')));
  if (dir === undefined) return false;
  try {
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Meta;
    const want = embedderOf(q);
    if (meta.provider !== want.provider || meta.model !== want.model || meta.dim !== want.dim) return false;
    const learner = meta.learner;
    if (!q.port) {
      // The learner must have learnt a prefix of this log's facts, else its vectors are another base's.
      if (
        !learner ||
        typeof learner.generation !== 'number' ||
        learner.learned > facts ||
        learner.last_fact !== learnerCheck(q, learner.learned)
      )
        return false;
    }
    const loaded: [typeof q.facts, Int32Array, string][] = [];
    for (const [name, lane, limit] of [
      ['facts', q.facts, facts],
      ['entities', q.entities, entities],
    ] as const) {
      const keys = readInt32(join(dir, `${name}.keys`));
      if (keys.length !== meta[name] || (keys.length && keys[keys.length - 1]! >= limit)) return false;
      // An f16 index saved by earlier code under the former name loads too (vectors.ts); binary codes, or the
      // exact rows of an i8 index's save (binary-set.ts, loadFromRows).
      const i8 = join(dir, indexFile(name));
      const codes = join(dir, codesFile(name));
      const binary = codesKind(lane.vectors);
      loaded.push([
        lane,
        keys,
        binary && existsSync(codes) ? codes : existsSync(i8) ? i8 : join(dir, `${name}.usearch`),
      ]);
    }
    if (!q.port && learner) {
      const tokens = JSON.parse(readFileSync(join(dir, 'learner.tokens.json'), 'utf8')) as string[];
      const state = {
        docs: learner.docs,
        tokens,
        df: readInt32(join(dir, 'learner.df')),
        context_rows: readInt32(join(dir, 'learner.rows')),
        context: readFloat32(join(dir, 'learner.context')),
      };
      q.restoreLearner(state, learner.learned, learner.generation);
    }
    for (const [lane, keys, path] of loaded) {
      const set = lane.vectors;
      if (keys.length && set instanceof BinaryVectorSet && !path.endsWith('.codes')) set.loadFromRows(path, keys);
      else if (keys.length && set instanceof TwoTierVectorSet && !path.endsWith('.codes'))
        set.loadFromIndex(path, keys);
      else if (keys.length) set.load(path, keys);
      lane.dropIndexed();
    }
    return true;
  } catch {
    // A damaged file is a missing one: the vectors are rebuilt.
    return false;
  }
}

/** Checkpoints of a catch-up at least this far apart... */
const CHECKPOINT_MIN_MS = 1000;
/** ...and far enough apart that saving takes at most this share of the catch-up's time (a save blocks the loop). */
const CHECKPOINT_SHARE = 0.05;

/**
 * Makes a background catch-up's progress durable while it runs: after a step of work, the vectors and the
 * learner are saved (saveVectors) once CHECKPOINT_MIN_MS have passed since the last save, and no sooner than
 * the last save's duration / CHECKPOINT_SHARE, so a kill -9 loses at most the work since the last checkpoint
 * and the next open resumes from it. Not until claims have stopped arriving for CHECKPOINT_MIN_MS (a save
 * blocks the loop the ingest needs; the catch-up after it is what takes long). The queue's close() ends it
 * (the close saves anyway).
 */
export function startCheckpoints(q: EmbeddingQueue, base: string): void {
  let savedAt = performance.now();
  let saveMs = 0;
  let savedWork = q.worked;
  let timer: NodeJS.Timeout | null = null;
  const hook = (left: number) => {
    if (q.onProgress !== hook || q.worked === savedWork) return;
    const now = performance.now();
    // Not while an ingest runs either: its facts arrive in bursts, so a quiet CHECKPOINT_MIN_MS is asked for.
    const wait = Math.max(
      Math.max(CHECKPOINT_MIN_MS, saveMs / CHECKPOINT_SHARE) - (now - savedAt),
      CHECKPOINT_MIN_MS - (now - q.lastAdd),
    );
    if (wait > 0) {
      // The catch-up ended before a checkpoint was due: one more when it is, unless more work comes first.
      if (left === 0 && timer === null)
        timer = setTimeout(() => {
          timer = null;
          hook(0);
        }, wait).unref();
      return;
    }
    const t = performance.now();
    try {
      saveVectors(q, base);
    } catch {
      // Derived data: a failed checkpoint costs only work redone after a kill.
    }
    savedAt = performance.now();
    saveMs = savedAt - t;
    savedWork = q.worked;
  };
  q.onProgress = hook;
  q.onClose = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
}
