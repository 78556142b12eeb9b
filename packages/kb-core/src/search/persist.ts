// The lexical index kept beside the base file (`<base>.search/`), so a reopen restores BM25 instead of
// tokenizing every claim of the log again (about 2 s of CPU per 100,000 claims, in the background but before
// any search can answer: every search first takes in what the intake holds). Saved at close; loaded at open
// when it is this log's: it covers the first `taken` claims the intake hands over, the claim taken last is the
// one the replayed intake has at that place, and the texts of the last fact and entity it holds hash as the
// replayed graph gives them. Anything else is ignored and the intake takes the log in as before. Like the
// vectors (embeddings/persist.ts), it is derived: a missing or damaged folder costs time, never data.
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, writePrivateFile } from '../store/private-files.js';
import { textHash } from '../store/shared-vectors.js';
import type { Bm25State } from './bm25.js';
import type { SearchIndex } from './search-index.js';
import type { ReadSnapshot } from '../graph/snapshot.js';
import { entityText, factText } from './text.js';
import { sideFile } from '../store/side-files.js';

/** Bumped when the files' layout changes: an older folder is then ignored. */
const FORMAT = 1;

interface Meta {
  format: number;
  taken: number;
  last_taken: number;
  facts_seen: number;
  entities_seen: number;
  /** textHash of the last fact's and entity's text (empty when none). */
  last_fact: string;
  last_entity: string;
  total_length: { facts: number; entities: number };
}

export function searchDir(base: string): string {
  return sideFile(base, '.search');
}

const ARRAYS = ['counts', 'max_tf', 'min_len', 'docs', 'tfs', 'lengths'] as const;

function check(s: ReadSnapshot, factsSeen: number, entitiesSeen: number): { last_fact: string; last_entity: string } {
  return {
    last_fact: factsSeen === 0 ? '' : textHash(factText(s, factsSeen - 1)),
    last_entity: entitiesSeen === 0 ? '' : textHash(entityText(s, entitiesSeen - 1)),
  };
}

/** Saves the index's BM25 state: to a temporary folder, then renamed; 0700 and 0600. */
export function saveSearch(ix: SearchIndex, s: ReadSnapshot, base: string): void {
  const dir = searchDir(base);
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  makePrivateDir(tmp);
  const facts = ix.facts.exportState();
  const entities = ix.entities.exportState();
  for (const [name, st] of [
    ['facts', facts],
    ['entities', entities],
  ] as const) {
    writePrivateFile(join(tmp, `${name}.terms.json`), JSON.stringify(st.terms));
    for (const a of ARRAYS) writePrivateFile(join(tmp, `${name}.${a}`), st[a]);
  }
  const meta: Meta = {
    format: FORMAT,
    taken: ix.taken,
    last_taken: ix.lastTaken,
    facts_seen: ix.factsSeen,
    entities_seen: ix.entitiesSeen,
    ...check(s, ix.factsSeen, ix.entitiesSeen),
    total_length: { facts: facts.total_length, entities: entities.total_length },
  };
  writePrivateFile(join(tmp, 'meta.json'), JSON.stringify(meta));
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
}

function readArray<T extends Int32Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(
  path: string,
  make: new (b: ArrayBuffer) => T,
): T {
  const buf = readFileSync(path);
  // A file's own buffer (readFileSync allocates one per file) is used in place; a pooled or unaligned one is copied.
  const whole = buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength;
  return new make(
    (whole ? buf.buffer : buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)) as ArrayBuffer,
  );
}

function readState(dir: string, name: string, totalLength: number): Bm25State {
  const f = (a: string) => join(dir, `${name}.${a}`);
  return {
    terms: JSON.parse(readFileSync(f('terms.json'), 'utf8')) as string[],
    counts: readArray(f('counts'), Int32Array),
    max_tf: readArray(f('max_tf'), Int32Array),
    min_len: readArray(f('min_len'), Float64Array),
    docs: readArray(f('docs'), Int32Array),
    tfs: readArray(f('tfs'), Uint16Array),
    lengths: readArray(f('lengths'), Int32Array),
    total_length: totalLength,
  };
}

/**
 * Restores the saved BM25 state into `ix` when it is this log's (see the top of the file); returns whether it
 * did. Called at open, after the log's replay, before anything reads the index.
 */
export function loadSearch(ix: SearchIndex, s: ReadSnapshot, base: string): boolean {
  const dir = searchDir(base);
  if (!existsSync(join(dir, 'meta.json'))) return false;
  try {
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Meta;
    if (meta.format !== FORMAT || meta.taken < ix.taken || meta.taken === 0) return false;
    // The claim taken last must be the one the replayed intake holds at that place (or was taken already).
    const last = meta.taken === ix.taken ? ix.lastTaken : ix.intake.at(meta.taken - ix.taken - 1);
    if (last !== meta.last_taken) return false;
    if (meta.facts_seen > s.factCount || meta.entities_seen > s.entityIds.length) return false;
    const now = check(s, meta.facts_seen, meta.entities_seen);
    if (now.last_fact !== meta.last_fact || now.last_entity !== meta.last_entity) return false;
    const facts = readState(dir, 'facts', meta.total_length.facts);
    const entities = readState(dir, 'entities', meta.total_length.entities);
    if (facts.lengths.length !== meta.facts_seen || entities.lengths.length !== meta.entities_seen) return false;
    ix.restore(facts, entities, meta.taken, meta.last_taken, meta.facts_seen, meta.entities_seen);
    return true;
  } catch {
    // A damaged file is a missing one: the intake takes the log in.
    return false;
  }
}
