// A large JSON body, kept as bytes: parsing and validating it (tens of MB of base64 matrices) would stall the
// event loop, so submission routes hand it to a thread that parses, validates and prepares it in one go.
import { InvalidParametersError, pointer, type Problem } from '@evident/contract';

export class RawJsonBody {
  constructor(readonly bytes: Buffer) {}
}

/**
 * JSON.parse that refuses prototype-poisoning keys, like Fastify's own parser: unparseable text throws a
 * SyntaxError; valid JSON with a `__proto__` or `constructor.prototype` key throws InvalidParametersError naming
 * each (JSON.parse defines such keys as plain own properties, so walking the result is safe).
 */
export function parseJsonSafely(text: string): unknown {
  const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const problems: Problem[] = [];
  forbiddenKeys(value, [], problems);
  if (problems.length) throw new InvalidParametersError(problems);
  return value;
}

// One shared path, pushed and popped: bodies hold large arrays of numbers, which are skipped without allocating.
function forbiddenKeys(value: unknown, path: string[], out: Problem[]): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === null || typeof item !== 'object') continue;
      path.push(String(i));
      forbiddenKeys(item, path, out);
      path.pop();
    }
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k === '__proto__') out.push({ path: pointer(...path, k), message: 'is a forbidden key' });
    else if (k === 'constructor' && v !== null && typeof v === 'object' && Object.hasOwn(v, 'prototype'))
      out.push({ path: pointer(...path, k, 'prototype'), message: 'is a forbidden key' });
    if (v === null || typeof v !== 'object') continue;
    path.push(k);
    forbiddenKeys(v, path, out);
    path.pop();
  }
}
