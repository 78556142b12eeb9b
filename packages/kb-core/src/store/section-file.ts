// A file of named binary sections (typed arrays, or JSON for what is small and irregular), for derived state kept
// beside a base (the graph snapshot, graph-snapshot.ts). Written to a temporary file, flushed, renamed over the
// old one and the folder flushed, so a kill -9 or a power loss leaves the old file or the new one, never half of
// one. Read back whole and checked: the magic, the header's own checksum, every section's checksum, offsets and
// lengths inside the file. Anything else reads as no file (null): the caller then rebuilds from the log.
// The checksum is a 4-lane 32-bit multiply-xor hash in JS rather than SHA-256: it detects damage (not tampering,
// the file is the owner's alone) at about 1 GB/s, where SHA-256 cost 300 ms per 64 MB on the shared machine.
import {
  closeSync,
  fstatSync,
  fsyncSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE, makePrivate } from './private-files.js';

export type SectionKind = 'i32' | 'f64' | 'u8' | 'json';
export type SectionData = Int32Array | Float64Array | Uint8Array;

export interface Section {
  name: string;
  kind: SectionKind;
  /** The typed array (written as it is, little-endian), or any JSON value for 'json'. */
  data: SectionData | unknown;
}

interface SectionEntry {
  name: string;
  kind: SectionKind;
  offset: number;
  bytes: number;
  sum: string;
}

interface Header {
  meta: unknown;
  sections: SectionEntry[];
}

/** Sections start at multiples of this (so that an f64 view of the file's buffer is aligned). */
const ALIGN = 16;
/** magic (8 bytes), header length (u32), header checksum (u32). */
const PREAMBLE = 16;

const pad = (n: number) => (n + ALIGN - 1) & ~(ALIGN - 1);

function mix(h: number, w: number): number {
  return (Math.imul(h ^ w, 0x01000193) + (h >>> 15)) | 0;
}

/** The checksum of a byte range, as 32 hex digits. */
export function checksum(bytes: Uint8Array): string {
  let a = 0x9e3779b1 | 0;
  let b = 0x85ebca77 | 0;
  let c = 0xc2b2ae3d | 0;
  let d = (0x27d4eb2f ^ bytes.length) | 0;
  const whole = bytes.length & ~15;
  // An unaligned range is copied once (only JSON sections and the header can be).
  const src = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice(0, whole);
  const u = new Uint32Array(src.buffer, src.byteOffset, whole >>> 2);
  for (let i = 0; i < u.length; i += 4) {
    a = mix(a, u[i]!);
    b = mix(b, u[i + 1]!);
    c = mix(c, u[i + 2]!);
    d = mix(d, u[i + 3]!);
  }
  for (let i = whole; i < bytes.length; i++) a = mix(a, bytes[i]!);
  const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
  return hex(a) + hex(b) + hex(c) + hex(d);
}

function bytesOf(s: Section): Uint8Array {
  if (s.kind === 'json') return Buffer.from(JSON.stringify(s.data), 'utf8');
  const a = s.data as SectionData;
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function writeAll(fd: number, b: Uint8Array): void {
  for (let done = 0; done < b.length; ) done += writeSync(fd, b, done, b.length - done);
}

/** Flushes a folder's entries (the rename) to disk; not every system allows it, and then it is skipped. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // e.g. a folder that cannot be opened for reading: the rename is still atomic, only not yet durable.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A writer's temporary older than this was left by a process that died while writing (a write takes seconds). */
const STALE_TMP_MS = 60 * 60 * 1000;

/** Removes the temporaries of `path` that killed writers left (a live writer's is younger). */
function removeStaleTemporaries(path: string): void {
  const dir = dirname(path);
  const prefix = `${basename(path)}.tmp-`;
  try {
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix)) continue;
      const p = join(dir, name);
      if (Date.now() - statSync(p).mtimeMs > STALE_TMP_MS) rmSync(p, { force: true });
    }
  } catch {
    // Left for the next save.
  }
}

/** Writes the sections durably to `path` (see the top of the file); `magic` is 8 ASCII characters. */
export function writeSectionFile(path: string, magic: string, meta: unknown, sections: readonly Section[]): void {
  const bodies = sections.map(bytesOf);
  const entries: SectionEntry[] = [];
  // Offsets are relative to the end of the header (whose length depends on them).
  let at = 0;
  for (let i = 0; i < sections.length; i++) {
    const b = bodies[i]!;
    entries.push({ name: sections[i]!.name, kind: sections[i]!.kind, offset: at, bytes: b.length, sum: checksum(b) });
    at += pad(b.length);
  }
  const header = Buffer.from(JSON.stringify({ meta, sections: entries } satisfies Header), 'utf8');
  const pre = Buffer.alloc(PREAMBLE);
  pre.write(magic.padEnd(8).slice(0, 8), 0, 'latin1');
  pre.writeUInt32LE(header.length, 8);
  pre.writeUInt32LE(parseInt(checksum(header).slice(0, 8), 16), 12);
  const zeros = new Uint8Array(ALIGN);
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const fd = openSync(tmp, 'w', PRIVATE_FILE);
  try {
    writeAll(fd, pre);
    writeAll(fd, header);
    writeAll(fd, zeros.subarray(0, pad(header.length) - header.length));
    for (const b of bodies) {
      writeAll(fd, b);
      writeAll(fd, zeros.subarray(0, pad(b.length) - b.length));
    }
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  makePrivate(tmp);
  renameSync(tmp, path);
  syncDir(dirname(path));
  removeStaleTemporaries(path);
}

export interface SectionFile {
  meta: unknown;
  has(name: string): boolean;
  /** A typed section (an array of its own), or a JSON section parsed; throws when absent or of another kind. */
  i32(name: string): Int32Array<ArrayBuffer>;
  f64(name: string): Float64Array<ArrayBuffer>;
  u8(name: string): Uint8Array<ArrayBuffer>;
  json(name: string): unknown;
}

/** Reads `into.length` bytes at `position`; false when the file ends first. */
export function readAt(fd: number, into: Uint8Array, position: number): boolean {
  for (let done = 0; done < into.length; ) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}

/**
 * Reads and checks a section file; null when it is missing, of another magic, damaged or truncated. Each section
 * is read into a buffer of its own (no buffer of the whole file), so a column that later grows frees its bytes.
 */
export function readSectionFile(path: string, magic: string): SectionFile | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const pre = Buffer.alloc(PREAMBLE);
    if (!readAt(fd, pre, 0) || pre.toString('latin1', 0, 8) !== magic.padEnd(8).slice(0, 8)) return null;
    const hlen = pre.readUInt32LE(8);
    if (PREAMBLE + hlen > size) return null;
    const headerBytes = Buffer.alloc(hlen);
    if (!readAt(fd, headerBytes, PREAMBLE)) return null;
    if (pre.readUInt32LE(12) !== parseInt(checksum(headerBytes).slice(0, 8), 16)) return null;
    const header = JSON.parse(headerBytes.toString('utf8')) as Header;
    const base = PREAMBLE + pad(hlen);
    // The sections fill the file exactly: a truncated file, or one with more after them, is not this one.
    let end = base;
    for (const s of header.sections) end = Math.max(end, base + s.offset + pad(s.bytes));
    if (end !== size) return null;
    const bodies = new Map<string, { kind: SectionKind; bytes: Uint8Array<ArrayBuffer> }>();
    for (const s of header.sections) {
      // 8-byte aligned for an f64 view (a fresh ArrayBuffer is).
      const bytes = new Uint8Array(new ArrayBuffer(s.bytes));
      if (s.offset % ALIGN !== 0 || !readAt(fd, bytes, base + s.offset)) return null;
      if (checksum(bytes) !== s.sum) return null;
      bodies.set(s.name, { kind: s.kind, bytes });
    }
    const body = (name: string, kind: SectionKind) => {
      const b = bodies.get(name);
      if (b === undefined || b.kind !== kind) throw new Error(`section ${name} (${kind}) missing`);
      return b.bytes;
    };
    return {
      meta: header.meta,
      has: (name) => bodies.has(name),
      i32: (name) => {
        const b = body(name, 'i32');
        return new Int32Array(b.buffer, 0, b.length >>> 2);
      },
      f64: (name) => {
        const b = body(name, 'f64');
        return new Float64Array(b.buffer, 0, b.length >>> 3);
      },
      u8: (name) => body(name, 'u8'),
      json: (name) => JSON.parse(Buffer.from(body(name, 'json').buffer).toString('utf8')),
    };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
