// The binary record of a ClaimRun, as the SQLite log stores it (a BLOB body; see chunks.ts and README.md). The
// five columns that take few values (types, predicate, class, source type) hold codes into a dictionary local to
// the record, so each of their strings is written once; the three that take a new value almost every claim
// (subject, object, source id) hold their strings in order, with their byte lengths. The record is about half
// the JSON's bytes, and it goes to the writer thread by transfer, not as a string to copy. Replay cuts each
// string out with one native call, and a dictionary column's claims share one string object per value.
//
// Layout, little-endian, offsets from the record's start:
//    0  u32 magic 'KBR1'           4  u32 n                   8  u32 id_start, low 32 bits
//   12  u32 id_start, high bits   16  16 bytes id_prefix      32  u32 d, the dictionary's size
//   36  u32 flags                 40  u32 string bytes        44  u32 extras bytes
//   48  n × f64 confidence
//       (d + 1) × u32 byte offsets of the dictionary's strings in the string area
//       5 × n codes (CODED columns, column after column): u16, or u32 with flag CODES_U32
//       3 × n byte lengths (INLINE columns, column after column): u16, or u32 with flag LENGTHS_U32
//       the string area: the dictionary's strings, then the INLINE columns' strings in order; UTF-8 (with flag
//       ASCII, every byte < 0x80)
//       the extras: JSON of { provenance_extra?, payload? }, or nothing
import { KbCorruptError } from '../errors.js';
import { newRun, type ClaimRun } from '../model/claim-run.js';
import { recordBuffer } from './record-buffers.js';

const MAGIC = 0x3152424b; // the bytes 'K' 'B' 'R' '1'
const HEADER = 48;
const CODES_U32 = 1;
const ASCII = 2;
const LENGTHS_U32 = 4;
const CODED = ['subject_type', 'relationship', 'predicate_class', 'object_type', 'source_type'] as const;
const INLINE = ['subject', 'object', 'source_id'] as const;

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Whether a body read from the log is a binary run record (a JSON body starts with '[' or '{'). */
export function isRunRecord(body: Uint8Array): boolean {
  return body.length >= 4 && body[0] === 0x4b && body[1] === 0x42 && body[2] === 0x52 && body[3] === 0x31;
}

/**
 * The run as a binary record, or null when it cannot be one (a big-endian host, a string with a lone surrogate,
 * which UTF-8 cannot carry): the caller writes the JSON form then. The record owns its ArrayBuffer, so it can be
 * transferred to another thread.
 */
export function encodeRunRecord(r: ClaimRun): Uint8Array | null {
  if (!LITTLE_ENDIAN) return null;
  const n = r.n;
  const codeOf = new Map<string, number>();
  const parts: string[] = [];
  const codes = scratch.u32('codes', 5 * n);
  let k = 0;
  for (const col of CODED) {
    const a = r[col];
    // Consecutive claims mostly repeat a value: compare with the last one before hashing.
    let last = '';
    let lastCode = -1;
    for (let i = 0; i < n; i++) {
      const s = a[i]!;
      if (s !== last || lastCode < 0) {
        let c = codeOf.get(s);
        if (c === undefined) {
          c = parts.length;
          codeOf.set(s, c);
          parts.push(s);
        }
        last = s;
        lastCode = c;
      }
      codes[k++] = lastCode;
    }
  }
  const d = parts.length;
  const lengths = scratch.u32('lengths', 3 * n);
  // Names are almost always ASCII: their chars are copied as bytes straight from the columns into scratch memory
  // kept between records, in one pass that also takes their lengths and ORs their chars together (the check).
  let bytes = scratch.u8('bytes', 0);
  let at = 0;
  let or = 0;
  for (let i = 0; i < d; i++) {
    const s = parts[i]!;
    if (at + s.length > bytes.length) bytes = scratch.grow('bytes', at, at + s.length);
    for (let j = 0; j < s.length; j++) {
      const c = s.charCodeAt(j);
      or |= c;
      bytes[at++] = c;
    }
  }
  let longest = 0;
  k = 0;
  for (const col of INLINE) {
    const a = r[col];
    for (let i = 0; i < n; i++) {
      const s = a[i]!;
      const len = s.length;
      lengths[k++] = len;
      if (len > longest) longest = len;
      if (at + len > bytes.length) bytes = scratch.grow('bytes', at, at + len);
      for (let j = 0; j < len; j++) {
        const c = s.charCodeAt(j);
        or |= c;
        bytes[at++] = c;
      }
    }
  }
  const ascii = or < 0x80;
  let strings = bytes.subarray(0, at);
  if (!ascii) {
    // Otherwise the strings are joined and encoded as UTF-8, with lengths in bytes; a lone surrogate, which
    // UTF-8 cannot carry, sends the run back to the JSON form.
    const all = parts.slice();
    for (const col of INLINE) for (let i = 0; i < n; i++) all.push(r[col][i]!);
    const joined = all.join('');
    // (isWellFormed is ES2024, beyond the project's lib setting; Node 20 has it.)
    if (!(joined as unknown as { isWellFormed(): boolean }).isWellFormed()) return null;
    strings = Buffer.from(joined, 'utf8');
    longest = 0;
    for (let j = 0; j < 3 * n; j++) {
      const len = Buffer.byteLength(all[d + j]!, 'utf8');
      lengths[j] = len;
      if (len > longest) longest = len;
    }
  }
  const stringBytes = strings.length;
  const offsets = new Uint32Array(d + 1);
  for (let i = 0, to = 0; i < d; i++) {
    to += ascii ? parts[i]!.length : Buffer.byteLength(parts[i]!, 'utf8');
    offsets[i + 1] = to;
  }
  const wideCodes = d > 0x10000;
  const wideLengths = longest > 0xffff;
  const extras =
    r.provenance_extra || r.payload
      ? Buffer.from(JSON.stringify({ provenance_extra: r.provenance_extra, payload: r.payload }), 'utf8')
      : null;
  const codesAt = HEADER + 8 * n + 4 * (d + 1);
  const lengthsAt = align4(codesAt + 5 * n * (wideCodes ? 4 : 2));
  const stringsAt = align4(lengthsAt + 3 * n * (wideLengths ? 4 : 2));
  const extrasAt = stringsAt + stringBytes;
  const total = extrasAt + (extras?.length ?? 0);
  // Its own ArrayBuffer (never Buffer's shared pool): transferable.
  const out = recordBuffer(total);
  const head = new Uint32Array(out.buffer, 0, HEADER / 4);
  head[0] = MAGIC;
  head[1] = n;
  head[2] = r.id_start >>> 0;
  head[3] = Math.floor(r.id_start / 2 ** 32);
  out.set(Buffer.from(r.id_prefix, 'latin1').subarray(0, 16), 16);
  head[8] = d;
  head[9] = (wideCodes ? CODES_U32 : 0) | (ascii ? ASCII : 0) | (wideLengths ? LENGTHS_U32 : 0);
  head[10] = stringBytes;
  head[11] = extras?.length ?? 0;
  new Float64Array(out.buffer, HEADER, n).set(r.confidence.subarray(0, n));
  new Uint32Array(out.buffer, HEADER + 8 * n, d + 1).set(offsets);
  if (wideCodes) new Uint32Array(out.buffer, codesAt, 5 * n).set(codes);
  else new Uint16Array(out.buffer, codesAt, 5 * n).set(codes);
  if (wideLengths) new Uint32Array(out.buffer, lengthsAt, 3 * n).set(lengths);
  else new Uint16Array(out.buffer, lengthsAt, 3 * n).set(lengths);
  out.set(strings, stringsAt);
  if (extras) out.set(extras, extrasAt);
  return out;
}

/**
 * Working arrays of the encoder, kept between records: a feed encodes a record per batch, and fresh arrays for
 * each were fresh pages to fault in and garbage to collect. Their contents are stale between uses.
 */
const scratch = {
  arrays: new Map<string, Uint32Array | Uint8Array>(),
  u32(name: string, length: number): Uint32Array {
    let a = this.arrays.get(name) as Uint32Array | undefined;
    if (!a || a.length < length) {
      a = new Uint32Array(Math.max(length, 1024));
      this.arrays.set(name, a);
    }
    return a.subarray(0, length);
  },
  u8(name: string, length: number): Uint8Array {
    let a = this.arrays.get(name) as Uint8Array | undefined;
    if (!a || a.length < length) {
      a = new Uint8Array(Math.max(length, 1 << 16));
      this.arrays.set(name, a);
    }
    return a;
  },
  /** The u8 array `name` grown to hold at least `need` bytes, its first `keep` kept. */
  grow(name: string, keep: number, need: number): Uint8Array {
    const old = this.arrays.get(name) as Uint8Array;
    const a = new Uint8Array(Math.max(need, old.length * 2));
    a.set(old.subarray(0, keep));
    this.arrays.set(name, a);
    return a;
  },
};

function align4(x: number): number {
  return (x + 3) & ~3;
}

/**
 * Decodes a binary run record stored at `seq` that should hold n claims. Throws KbCorruptError when the
 * record is damaged: a bad length, header, offset or code.
 */
export function decodeRunRecord(seq: number, n: number, body: Uint8Array): ClaimRun {
  const bad = (what: string) => new KbCorruptError(`log chunk at seq ${seq} ${what}`);
  if (!LITTLE_ENDIAN) throw bad('is a binary run record, which this host (big-endian) does not read');
  // Typed views need aligned offsets: a body at an odd place in its buffer is copied first (one memcpy).
  // (A copy made by hand: a Buffer's slice() is a view of the same bytes.)
  let b = body;
  if (body.byteOffset % 8 !== 0) {
    b = new Uint8Array(body.length);
    b.set(body);
  }
  if (b.length < HEADER) throw bad('is a truncated run record');
  const head = new Uint32Array(b.buffer, b.byteOffset, HEADER / 4);
  if (head[0] !== MAGIC) throw bad('is not a run record');
  if (head[1] !== n) throw bad(`declares ${head[1]} claims where ${n} were expected`);
  const idStart = head[2]! + head[3]! * 2 ** 32;
  if (idStart + n > 2 ** 48) throw bad('has a bad id counter');
  const buf = Buffer.from(b.buffer, b.byteOffset, b.length);
  const idPrefix = buf.toString('latin1', 16, 32);
  if (!/^[0-9a-f]{16}$/.test(idPrefix)) throw bad('has a bad id prefix');
  const d = head[8]!;
  const flags = head[9]!;
  const stringBytes = head[10]!;
  const codesAt = HEADER + 8 * n + 4 * (d + 1);
  const lengthsAt = align4(codesAt + 5 * n * (flags & CODES_U32 ? 4 : 2));
  const stringsAt = align4(lengthsAt + 3 * n * (flags & LENGTHS_U32 ? 4 : 2));
  const extrasAt = stringsAt + stringBytes;
  if (extrasAt + head[11]! !== b.length) throw bad('has a bad length');
  const at = b.byteOffset;
  const offsets = new Uint32Array(b.buffer, at + HEADER + 8 * n, d + 1);
  const dict = new Array<string>(d);
  const encoding = flags & ASCII ? 'latin1' : 'utf8';
  for (let i = 0; i < d; i++) {
    const from = offsets[i]!;
    const to = offsets[i + 1]!;
    if (from > to || to > stringBytes) throw bad('has a bad string offset');
    dict[i] = buf.toString(encoding, stringsAt + from, stringsAt + to);
  }
  const r = newRun(n, idPrefix, idStart);
  r.confidence.set(new Float64Array(b.buffer, at + HEADER, n));
  const codes =
    flags & CODES_U32 ? new Uint32Array(b.buffer, at + codesAt, 5 * n) : new Uint16Array(b.buffer, at + codesAt, 5 * n);
  let k = 0;
  for (const col of CODED) {
    const a = r[col];
    for (let i = 0; i < n; i++) {
      const c = codes[k++]!;
      if (c >= d) throw bad(`has a bad code in '${col}'`);
      a[i] = dict[c]!;
    }
  }
  const lengths =
    flags & LENGTHS_U32
      ? new Uint32Array(b.buffer, at + lengthsAt, 3 * n)
      : new Uint16Array(b.buffer, at + lengthsAt, 3 * n);
  let from = stringsAt + offsets[d]!;
  k = 0;
  for (const col of INLINE) {
    const a = r[col];
    for (let i = 0; i < n; i++) {
      const to = from + lengths[k++]!;
      if (to > extrasAt) throw bad(`has a bad length in '${col}'`);
      a[i] = buf.toString(encoding, from, to);
      from = to;
    }
  }
  if (from !== extrasAt) throw bad('has a bad string area');
  if (head[11]! > 0) {
    let extras: { provenance_extra?: unknown; payload?: unknown };
    try {
      extras = JSON.parse(buf.toString('utf8', extrasAt, b.length)) as typeof extras;
    } catch {
      throw bad('has extras that are not valid JSON');
    }
    if (extras === null || typeof extras !== 'object') throw bad('has bad extras');
    for (const key of ['provenance_extra', 'payload'] as const) {
      const v = extras[key];
      if (v === undefined) continue;
      if (v === null || typeof v !== 'object') throw bad(`has a bad '${key}'`);
      r[key] = v as Record<number, never>;
    }
  }
  return r;
}
