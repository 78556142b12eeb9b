// The shape of a JSON body, decided on its bytes before JSON.parse: how deeply it nests and how many members its
// objects hold. One linear pass outside strings (strings are skipped with Buffer#indexOf, which is native), no
// recursion, nothing allocated per byte. Every walk over a parsed body (the forbidden-key check, the schema check,
// a kind's prepare) is then bounded by the depth limit, and a body nested a hundred thousand levels deep is a 400
// naming the limit, never a stack overflow; JSON.parse never builds an object of millions of keys (seconds of one
// thread's time for a body of a few MB, duplicated keys included).
//
// Written by hand: the npm JSON tokenizers decode every string on the calling thread (see body-scan.ts); this
// needs only the brackets, colons and commas.
import { InvalidParametersError, pointer } from '@evident/contract';

/**
 * Levels of arrays and objects a body may nest (the body itself is level 1). The API's schemas are three levels
 * deep at most; the margin leaves room for kinds to come and still keeps every walk over a body shallow.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Members one object may hold, keys repeated included (JSON.parse keeps the last of a repeated key, at a cost per
 * occurrence). The API's objects have a dozen fields at most.
 */
export const MAX_OBJECT_MEMBERS = 1000;

// Deliberate likeness: named constants, which the duplicates tool pairs by shape with other files' constant runs
// (the enrichment plot's layout, compound-generation's atom-pair codes); the values are unrelated, nothing to share.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const TOO_DEEP = `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels (the limit)`;
/** The refusal of an object (at `path`) with more than MAX_OBJECT_MEMBERS members; the streaming scan's too. */
export const tooManyMembers = (path: string) =>
  new InvalidParametersError(
    [{ path, message: `has more than ${MAX_OBJECT_MEMBERS} members (repeated keys count), the limit` }],
    `the body has an object of more than ${MAX_OBJECT_MEMBERS} members, the limit of this API`,
  );
/** A refusal's pointer stops growing past this many characters (it then names an ancestor of the deep value). */
const MAX_POINTER_CHARS = 1000;

/**
 * The refusal of a body that nests deeper than MAX_JSON_DEPTH (400 `invalid_parameters`, the path of the value
 * that crosses the limit) or has an object of more than MAX_OBJECT_MEMBERS members (the object's path), or
 * undefined. Text that is not JSON is left to JSON.parse, which refuses it.
 */
export function jsonShapeError(b: Buffer): InvalidParametersError | undefined {
  // Per open level: whether it is an array, its current index (arrays) or members so far (objects), its current
  // key's bytes (objects).
  const isArray = new Uint8Array(MAX_JSON_DEPTH + 1);
  const index = new Uint32Array(MAX_JSON_DEPTH + 1);
  const keyStart = new Int32Array(MAX_JSON_DEPTH + 1);
  const keyEnd = new Int32Array(MAX_JSON_DEPTH + 1);
  let depth = 0;
  let stringStart = -1;
  let stringEnd = -1;
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i]!;
    if (c === QUOTE) {
      const end = stringEndAt(b, i + 1);
      if (end < 0) return undefined;
      stringStart = i + 1;
      stringEnd = end;
      i = end + 1;
      continue;
    }
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === MAX_JSON_DEPTH) {
        return new InvalidParametersError(
          [{ path: pathOf(b, depth, isArray, index, keyStart, keyEnd), message: TOO_DEEP }],
          `the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels, the limit of this API`,
        );
      }
      depth++;
      isArray[depth] = c === OPEN_ARRAY ? 1 : 0;
      index[depth] = 0;
      keyStart[depth] = keyEnd[depth] = -1;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (depth > 0) depth--;
    } else if (c === COMMA) {
      if (depth > 0 && isArray[depth]) index[depth]!++;
    } else if (c === COLON) {
      if (depth > 0 && !isArray[depth]) {
        keyStart[depth] = stringStart;
        keyEnd[depth] = stringEnd;
        if (++index[depth]! > MAX_OBJECT_MEMBERS) {
          return tooManyMembers(pathOf(b, depth - 1, isArray, index, keyStart, keyEnd));
        }
      }
    }
    i++;
  }
  return undefined;
}

/** The index of the quote that closes the string whose text starts at `from`, or -1. Linear in the string. */
function stringEndAt(b: Buffer, from: number): number {
  let at = from;
  for (;;) {
    const q = b.indexOf(QUOTE, at);
    if (q < 0) return -1;
    // The quote is escaped when an odd number of backslashes precede it (each run is counted once).
    let k = q - 1;
    while (k >= from && b[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q;
    at = q + 1;
  }
}

function pathOf(
  b: Buffer,
  depth: number,
  isArray: Uint8Array,
  index: Uint32Array,
  keyStart: Int32Array,
  keyEnd: Int32Array,
): string {
  let path = '';
  for (let d = 1; d <= depth; d++) {
    const segment = isArray[d] ? pointer(index[d]!) : pointer(keyText(b, keyStart[d]!, keyEnd[d]!));
    if (path.length + segment.length > MAX_POINTER_CHARS) break;
    path += segment;
  }
  return path;
}

function keyText(b: Buffer, start: number, end: number): string {
  if (start < 0) return '';
  const raw = b.toString('utf8', start, Math.min(end, start + MAX_POINTER_CHARS * 6));
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
