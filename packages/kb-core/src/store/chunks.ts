// The log's physical encoding, shared by both stores: one row per chunk of entries appended together, body = JSON.
// - A chunk of ordinary entries is a JSON array; a claim in it is a positional array (see encodeEntry): half
//   the bytes of the object form and two to three times faster to stringify and parse. Other entries, and
//   claims written in object form, are stored and read as they are.
// - A ClaimRun is a chunk of its own: a JSON object with one array per column, so an ingest batch is serialised
//   without an object per claim. Confidences go as base64 of little-endian float64s: exact, and several times
//   cheaper than printing 17-digit decimals.
// - A store that keeps bytes (SQLite) writes a ClaimRun as a binary record instead (run-record.ts): a dictionary
//   of the run's distinct strings and codes for the columns. Both forms are read back, so older logs stay
//   readable; a body that comes back as bytes is a binary record (or, leniently, JSON stored as bytes).
import { KbCorruptError } from '../errors.js';
import { runProblem, sliceRun } from '../model/claim-run.js';
import { entrySpan } from './log-span.js';
import { decodeRunRecord, encodeRunRecord, isRunRecord } from './run-record.js';
import type { ClaimEntry, LogEntry, LogRecord } from './types.js';
import type { ClaimRun } from '../model/claim-run.js';

/** Most ordinary entries per chunk. */
export const CHUNK = 4096;
/** Most claims per run chunk (about 2 MB of JSON). */
export const RUN_CHUNK = 16384;

type EncodedClaim = [
  claim_id: string,
  subject: string,
  subject_type: string,
  relationship: string,
  predicate_class: string,
  object: string,
  object_type: string,
  source_type: string,
  source_id: string,
  confidence: number,
  provenance_extra?: Record<string, unknown> | 0,
  payload?: unknown,
];

export function encodeEntry(e: LogEntry): unknown {
  if (e.kind !== 'claim') return e;
  const p = e.provenance;
  const out: EncodedClaim = [
    e.claim_id,
    e.subject[0],
    e.subject[1],
    e.predicate[0],
    e.predicate[1],
    e.object[0],
    e.object[1],
    p.source_type,
    p.source_id,
    e.confidence,
  ];
  let extra: Record<string, unknown> | undefined;
  for (const k in p) {
    if (k === 'source_type' || k === 'source_id' || p[k] === undefined) continue;
    extra ??= {};
    extra[k] = p[k];
  }
  if (extra !== undefined || e.payload !== undefined) out.push(extra ?? 0);
  if (e.payload !== undefined) out.push(e.payload);
  return out;
}

export function decodeEntry(x: unknown): LogEntry {
  if (!Array.isArray(x)) return x as LogEntry;
  const a = x as EncodedClaim;
  const provenance = (
    a[10] ? { source_type: a[7], source_id: a[8], ...a[10] } : { source_type: a[7], source_id: a[8] }
  ) as ClaimEntry['provenance'];
  const e: ClaimEntry = {
    kind: 'claim',
    claim_id: a[0],
    subject: [a[1], a[2]],
    predicate: [a[3], a[4]],
    object: [a[5], a[6]],
    provenance,
    confidence: a[9],
  };
  if (a.length > 11) e.payload = a[11];
  return e;
}

const LITTLE_ENDIAN = new Uint8Array(Float64Array.of(1).buffer)[7] === 0x3f;

function float64sToBase64(values: Float64Array): string {
  let f = values;
  if (!LITTLE_ENDIAN) {
    f = new Float64Array(values.length);
    const v = new DataView(f.buffer);
    for (let i = 0; i < f.length; i++) v.setFloat64(i * 8, values[i]!, true);
  }
  return Buffer.from(f.buffer, f.byteOffset, f.byteLength).toString('base64');
}

function base64ToFloat64s(text: string, n: number): Float64Array | null {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== n * 8) return null;
  const out = new Float64Array(n);
  if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(bytes);
  else {
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < n; i++) out[i] = v.getFloat64(i * 8, true);
  }
  return out;
}

function encodeRun(r: ClaimRun): string {
  return JSON.stringify({ ...r, confidence: float64sToBase64(r.confidence) });
}

/** A chunk's body: JSON text, or (for a store that keeps bytes) a binary run record. */
export type ChunkBody = string | Uint8Array;

/**
 * Entries as chunks: each ClaimRun alone (split above RUN_CHUNK), the other entries CHUNK at a time. With
 * `binary`, runs become binary records (run-record.ts), each owning its ArrayBuffer (transferable).
 */
export function encodeChunks(entries: readonly LogEntry[], binary = false): { n: number; body: ChunkBody }[] {
  const out: { n: number; body: ChunkBody }[] = [];
  let part: unknown[] = [];
  const flush = () => {
    if (part.length === 0) return;
    out.push({ n: part.length, body: JSON.stringify(part) });
    part = [];
  };
  for (const e of entries) {
    if (e.kind === 'claims') {
      flush();
      for (let i = 0; i < e.n; i += RUN_CHUNK) {
        const end = Math.min(e.n, i + RUN_CHUNK);
        const run = sliceRun(e, i, end);
        out.push({ n: end - i, body: (binary && encodeRunRecord(run)) || encodeRun(run) });
      }
      continue;
    }
    part.push(encodeEntry(e));
    if (part.length === CHUNK) flush();
  }
  flush();
  return out;
}

/** How many seqs the entries take. */
export function spanOf(entries: readonly LogEntry[]): number {
  let n = 0;
  for (const e of entries) n += entrySpan(e);
  return n;
}

/**
 * Decodes the chunk stored at `seq` holding `n` entries and appends the records with seq > after to `out`.
 * Throws KbCorruptError when the body does not match what the row says.
 */
export function decodeChunk(
  seq: number,
  n: number,
  ts: number,
  body: ChunkBody,
  after: number,
  out: LogRecord[],
): void {
  if (typeof body !== 'string') {
    if (isRunRecord(body)) {
      const from = Math.max(0, after + 1 - seq);
      if (from < n) out.push({ seq: seq + from, ts, entry: sliceRun(decodeRunRecord(seq, n, body), from, n) });
      return;
    }
    body = Buffer.from(body.buffer, body.byteOffset, body.length).toString('utf8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new KbCorruptError(`log chunk at seq ${seq} is not valid JSON`);
  }
  if (Array.isArray(parsed)) {
    if (parsed.length !== n) throw new KbCorruptError(`log chunk at seq ${seq} has a bad length`);
    for (let i = 0; i < n; i++) if (seq + i > after) out.push({ seq: seq + i, ts, entry: decodeEntry(parsed[i]) });
    return;
  }
  const r = parsed as ClaimRun;
  if (r === null || typeof r !== 'object' || r.kind !== 'claims' || typeof (r.confidence as unknown) !== 'string') {
    throw new KbCorruptError(`log chunk at seq ${seq} is neither an entry list nor a claim run`);
  }
  const confidence = base64ToFloat64s(r.confidence as unknown as string, n);
  if (!confidence) throw new KbCorruptError(`log chunk at seq ${seq} has a bad 'confidence' column`);
  (r as { confidence: unknown }).confidence = confidence;
  const problem = runProblem(r, n);
  if (problem) throw new KbCorruptError(`log chunk at seq ${seq} ${problem}`);
  const from = Math.max(0, after + 1 - seq);
  if (from < n) out.push({ seq: seq + from, ts, entry: sliceRun(r, from, n) });
}
