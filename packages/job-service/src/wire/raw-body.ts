// A large JSON body, kept as bytes: parsing and validating it (tens of MB of base64 matrices) would stall the
// event loop, so submission routes hand it to a thread that parses, validates and prepares it in one go.
import { InvalidParametersError, pointer, type Problem } from '@evident/contract';
import { jsonShapeError } from './json-shape.js';

export class RawJsonBody {
  constructor(readonly bytes: Buffer) {}
}

/**
 * JSON.parse of a body's bytes, bounded and checked like Fastify's own parser: a body nesting deeper than
 * MAX_JSON_DEPTH, or with an object of more than MAX_OBJECT_MEMBERS members, is refused before it is parsed
 * (InvalidParametersError naming the limit); unparseable text throws
 * a SyntaxError; valid JSON with a `__proto__` or `constructor.prototype` key throws InvalidParametersError naming
 * each (JSON.parse defines such keys as plain own properties, so walking the result is safe).
 */
export function parseJsonSafely(bytes: Buffer): unknown {
  const refused = jsonShapeError(bytes);
  if (refused) throw refused;
  const text = bytes.toString('utf8');
  const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const problems = forbiddenKeys(value);
  if (problems.length) throw new InvalidParametersError(problems);
  return value;
}

interface Frame {
  /** The object's keys, or undefined for an array. */
  keys: string[] | undefined;
  container: Record<string, unknown> | unknown[];
  /** The next member to visit. */
  next: number;
}

/**
 * Every `__proto__` and `constructor.prototype` key, depth first in document order. Iterative (an explicit stack of
 * frames, one per open container): no body, however deep, can overflow the call stack. Bodies hold large arrays
 * of numbers, which are skipped without allocating.
 */
function forbiddenKeys(root: unknown): Problem[] {
  const out: Problem[] = [];
  if (root === null || typeof root !== 'object') return out;
  const frames: Frame[] = [frameOf(root)];
  // path[d] is the member of frames[d] being visited.
  const path: string[] = [];
  while (frames.length) {
    const f = frames[frames.length - 1]!;
    const length = f.keys ? f.keys.length : (f.container as unknown[]).length;
    if (f.next >= length) {
      frames.pop();
      path.pop();
      continue;
    }
    const at = f.next++;
    let v: unknown;
    if (f.keys) {
      const k = f.keys[at]!;
      v = (f.container as Record<string, unknown>)[k];
      path[frames.length - 1] = k;
      path.length = frames.length;
      if (k === '__proto__') out.push({ path: pointer(...path), message: 'is a forbidden key' });
      else if (k === 'constructor' && v !== null && typeof v === 'object' && Object.hasOwn(v, 'prototype'))
        out.push({ path: pointer(...path, 'prototype'), message: 'is a forbidden key' });
    } else {
      v = (f.container as unknown[])[at];
      if (v === null || typeof v !== 'object') continue;
      path[frames.length - 1] = String(at);
      path.length = frames.length;
    }
    if (v !== null && typeof v === 'object') frames.push(frameOf(v));
  }
  return out;
}

const frameOf = (v: object): Frame =>
  Array.isArray(v)
    ? { keys: undefined, container: v, next: 0 }
    : { keys: Object.keys(v), container: v as Record<string, unknown>, next: 0 };
