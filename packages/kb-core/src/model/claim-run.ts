// ClaimRun, the columnar form of consecutive claims, and its helpers. A model concept: the engine captures
// batches as runs, the index applies them, and the stores write and read them back.
import type { ClaimEntry } from './entries.js';

/**
 * Consecutive claims in columns: how the engine writes an ingest batch, one entry standing for `n` log entries
 * with consecutive seqs (a record of it carries the first). Column arrays all have length n; claim i is the
 * ClaimEntry `claimOfRun(run, i)` (below). Columns cost no object per claim to build, apply or
 * serialise, which is most of what a row-per-object form costs at a million claims.
 */
export interface ClaimRun {
  kind: 'claims';
  n: number;
  /** Claim i's id is 'clm_' + id_prefix + (id_start + i) as 16 lower-case hex digits. */
  id_prefix: string;
  id_start: number;
  subject: string[];
  subject_type: string[];
  relationship: string[];
  predicate_class: string[];
  object: string[];
  object_type: string[];
  source_type: string[];
  source_id: string[];
  confidence: Float64Array;
  /** Sparse, by position: the provenance fields besides source_type and source_id (derived_from among them). */
  provenance_extra?: Record<number, Record<string, unknown>>;
  /** Sparse, by position: payloads (a claim without one has no key). */
  payload?: Record<number, unknown>;
}

const COLUMNS = [
  'subject',
  'subject_type',
  'relationship',
  'predicate_class',
  'object',
  'object_type',
  'source_type',
  'source_id',
] as const;

const ZEROS = '000000000000';
/** The four low hex digits of every counter, made once: an id is then one concatenation (see generatedClaimId). */
let HEX4: string[] | undefined;
let lastPrefix = '';
let lastHigh = -1;
let lastHead = '';

/**
 * 'clm_' + prefix + counter as 16 hex digits: the id of a claim the engine generated. Ids are made a batch at
 * a time, so the part above the low 16 bits is almost always the previous call's: the id is then one
 * concatenation of two strings already made, instead of four new strings.
 */
export function generatedClaimId(prefix: string, counter: number): string {
  HEX4 ??= Array.from({ length: 65536 }, (_, i) => i.toString(16).padStart(4, '0'));
  const high = Math.floor(counter / 65536);
  if (high !== lastHigh || prefix !== lastPrefix) {
    const hex = high.toString(16);
    lastHead = `clm_${prefix}${ZEROS.slice(hex.length)}${hex}`;
    lastPrefix = prefix;
    lastHigh = high;
  }
  return lastHead + HEX4[counter % 65536]!;
}

/** An empty run with room for n claims; the caller fills every column position. */
export function newRun(n: number, idPrefix: string, idStart: number): ClaimRun {
  return {
    kind: 'claims',
    n,
    id_prefix: idPrefix,
    id_start: idStart,
    subject: new Array<string>(n),
    subject_type: new Array<string>(n),
    relationship: new Array<string>(n),
    predicate_class: new Array<string>(n),
    object: new Array<string>(n),
    object_type: new Array<string>(n),
    source_type: new Array<string>(n),
    source_id: new Array<string>(n),
    confidence: new Float64Array(n),
  };
}

/** The full provenance of claim i (a new object). */
export function provenanceOfRun(r: ClaimRun, i: number): ClaimEntry['provenance'] {
  const extra = r.provenance_extra?.[i];
  return extra
    ? { source_type: r.source_type[i]!, source_id: r.source_id[i]!, ...extra }
    : { source_type: r.source_type[i]!, source_id: r.source_id[i]! };
}

/** Claim i of the run as a ClaimEntry (new objects). */
export function claimOfRun(r: ClaimRun, i: number): ClaimEntry {
  const e: ClaimEntry = {
    kind: 'claim',
    claim_id: generatedClaimId(r.id_prefix, r.id_start + i),
    subject: [r.subject[i]!, r.subject_type[i]!],
    predicate: [r.relationship[i]!, r.predicate_class[i]!],
    object: [r.object[i]!, r.object_type[i]!],
    provenance: provenanceOfRun(r, i),
    confidence: r.confidence[i]!,
  };
  if (r.payload && i in r.payload) e.payload = r.payload[i];
  return e;
}

/** The claims at the positions `keep` lists (ascending), renumbered from 0: ids continue from id_start. */
export function pickFromRun(r: ClaimRun, keep: readonly number[], idStart = r.id_start): ClaimRun {
  const out = newRun(keep.length, r.id_prefix, idStart);
  for (const col of COLUMNS) {
    const from = r[col];
    const to = out[col];
    for (let k = 0; k < keep.length; k++) to[k] = from[keep[k]!]!;
  }
  for (let k = 0; k < keep.length; k++) out.confidence[k] = r.confidence[keep[k]!]!;
  for (const sparse of ['provenance_extra', 'payload'] as const) {
    const m = r[sparse];
    if (!m) continue;
    const picked: Record<number, never> = {};
    let any = false;
    for (let k = 0; k < keep.length; k++) {
      if (keep[k]! in m) {
        picked[k] = m[keep[k]!] as never;
        any = true;
      }
    }
    if (any) out[sparse] = picked;
  }
  return out;
}

/** Claims from..to-1 of the run, as a run whose ids are theirs. */
export function sliceRun(r: ClaimRun, from: number, to: number): ClaimRun {
  if (from === 0 && to === r.n) return r;
  const keep = new Array<number>(to - from);
  for (let i = from; i < to; i++) keep[i - from] = i;
  return pickFromRun(r, keep, r.id_start + from);
}

/** Checks a run read back from storage (a damaged or hand-edited log); returns a message, or '' when sound. */
export function runProblem(r: ClaimRun, n: number): string {
  if (r.n !== n) return `declares ${r.n} claims where ${n} were expected`;
  if (typeof r.id_prefix !== 'string' || !/^[0-9a-f]{16}$/.test(r.id_prefix)) return 'has a bad id prefix';
  if (!Number.isSafeInteger(r.id_start) || r.id_start < 0 || r.id_start + n > 2 ** 48) return 'has a bad id counter';
  for (const col of COLUMNS) {
    const a = r[col];
    if (!Array.isArray(a) || a.length !== n) return `has a bad '${col}' column`;
    for (let i = 0; i < n; i++) if (typeof a[i] !== 'string') return `has a non-string in '${col}'`;
  }
  if (!(r.confidence instanceof Float64Array) || r.confidence.length !== n) return "has a bad 'confidence' column";
  if (r.provenance_extra !== undefined && (typeof r.provenance_extra !== 'object' || r.provenance_extra === null))
    return "has a bad 'provenance_extra'";
  if (r.payload !== undefined && (typeof r.payload !== 'object' || r.payload === null)) return "has a bad 'payload'";
  return '';
}
