// The target fields of a generation request beyond the seed's (all optional): a structure file or a PDB id, the
// chain, and an explicit pocket box. Shapes and sizes are checked here; what the structure holds (chain,
// residues, pocket bounds) is checked by site.ts once the structure text is at hand.
import { gunzipSync } from 'node:zlib';
import type { FieldProblem } from '../errors.js';

export type Vec3 = [number, number, number];

export interface TargetRequest {
  /** The structure the request carried (decoded), or null: then the service resolves one at run time. */
  structure: string | null;
  /** A PDB entry to fetch at run time (ignored when `structure` is given: both are refused). */
  pdb_id: string | null;
  chain: string | null;
  pocket: { center: Vec3; size: Vec3 } | null;
}

/** Bounds: the encoded field, the decoded (and, for gzip, inflated) text. */
export const STRUCTURE_LIMITS = { encodedChars: 40_000_000, decodedBytes: 30_000_000 };
// Classic four-character PDB ids (1ABC) and the extended form wwPDB announced for when they run out
// (pdb_00001abc: "pdb_" and eight characters, a classic id being pdb_0000 followed by it).
export const PDB_ID = /^(?:[0-9][A-Za-z0-9]{3}|[Pp][Dd][Bb]_[0-9]{5}[A-Za-z0-9]{3})$/;

/** The id in one spelling (upper case; an extended id that holds a classic one becomes it), or undefined. */
export function canonicalPdbId(raw: string): string | undefined {
  if (!PDB_ID.test(raw)) return undefined;
  if (raw.length === 4) return raw.toUpperCase();
  const rest = raw.slice(4).toUpperCase();
  return rest.startsWith('0000') ? rest.slice(4) : `pdb_${rest}`;
}
export const CHAIN_ID = /^[A-Za-z0-9]{1,4}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isVec3 = (v: unknown): v is Vec3 =>
  Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x));

export function readTargetFields(
  raw: Record<string, unknown>,
  bad: (path: string, message: string) => void,
): TargetRequest {
  const target: TargetRequest = { structure: null, pdb_id: null, chain: null, pocket: null };
  if (raw.structure !== undefined) {
    const text = decodeStructure(raw.structure, bad);
    if (text !== null) target.structure = text;
  }
  if (raw.pdb_id !== undefined) {
    const id = typeof raw.pdb_id === 'string' ? canonicalPdbId(raw.pdb_id) : undefined;
    if (id === undefined)
      bad('/pdb_id', 'must be a four-character PDB id such as "2SRC", or its extended form such as "pdb_00002src"');
    else if (raw.structure !== undefined) bad('/pdb_id', 'give either structure or pdb_id, not both');
    else target.pdb_id = id;
  }
  if (raw.chain !== undefined) {
    const c = raw.chain;
    if (typeof c !== 'string' || !CHAIN_ID.test(c)) bad('/chain', 'must be a chain id of 1 to 4 letters or digits');
    else target.chain = c;
  }
  if (raw.pocket !== undefined) {
    const p = raw.pocket;
    if (!isObject(p)) bad('/pocket', 'must be an object { center: [x, y, z], size: [x, y, z] } in Å');
    else {
      for (const k of Object.keys(p)) if (k !== 'center' && k !== 'size') bad(`/pocket/${k}`, 'unknown field');
      if (!isVec3(p.center)) bad('/pocket/center', 'must be three finite numbers [x, y, z] in Å');
      if (!isVec3(p.size)) bad('/pocket/size', 'must be three finite numbers [x, y, z] in Å');
      if (isVec3(p.center) && isVec3(p.size)) target.pocket = { center: p.center, size: p.size };
    }
  }
  return target;
}

/** Base64 (line breaks allowed) of PDB or mmCIF text, optionally gzip-compressed. */
function decodeStructure(v: unknown, bad: (path: string, message: string) => void): string | null {
  if (typeof v !== 'string' || v.length === 0) {
    bad('/structure', 'must be the base64 of a PDB or mmCIF file');
    return null;
  }
  if (v.length > STRUCTURE_LIMITS.encodedChars) {
    bad('/structure', `is ${v.length} characters; at most ${STRUCTURE_LIMITS.encodedChars} (base64)`);
    return null;
  }
  const compact = v.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) {
    bad('/structure', 'is not valid base64');
    return null;
  }
  let bytes: Buffer = Buffer.from(compact, 'base64');
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: STRUCTURE_LIMITS.decodedBytes });
    } catch {
      bad('/structure', `is gzip data that does not inflate within ${STRUCTURE_LIMITS.decodedBytes} bytes`);
      return null;
    }
  }
  if (bytes.length > STRUCTURE_LIMITS.decodedBytes) {
    bad('/structure', `decodes to ${bytes.length} bytes; at most ${STRUCTURE_LIMITS.decodedBytes}`);
    return null;
  }
  if (bytes.includes(0)) {
    bad('/structure', 'decodes to binary data, not the text of a PDB or mmCIF file');
    return null;
  }
  return bytes.toString('utf8');
}

export type { FieldProblem };
