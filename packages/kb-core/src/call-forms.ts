// The seed's call forms beside the options objects (beside the public types: the facade and the stages read
// their arguments through them): `query('olaparib', 1)` as well as `query('olaparib',
// { depth: 1 })`. Every method that takes optional arguments reads them through these helpers, so a positional
// argument is never silently ignored, an unknown option key is an error, and anything else is a
// KbValidationError naming the argument.
import { KbValidationError } from './errors.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);

/** Refuses keys outside `allowed` (an unknown option is a typo or an option this library does not have). */
export function checkKeys(o: Record<string, unknown>, name: string, allowed: readonly string[]): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k))
      throw new KbValidationError(
        'unknown_option',
        `${name}.${k}`,
        `is not an option here; the options are ${allowed.join(', ') || '(none)'}`,
      );
  }
}

/** An options object (or undefined: {}), with its keys checked. */
export function optionsOf<T extends object>(v: unknown, name: string, allowed: readonly string[]): T {
  if (v === undefined || v === null) return {} as T;
  if (!isPlainObject(v)) throw new KbValidationError('invalid_type', name, 'must be an options object');
  checkKeys(v, name, allowed);
  return v as T;
}

/**
 * Positional arguments, one options object, or positional arguments followed by an options object (Python's
 * `f(a, b, key=value)`): `args` are the arguments after the required ones; `names` their names in the seed's
 * order, `types` the typeof each positional must have ('array' for arrays; `null` and undefined skip a
 * position). A plain object is read as the options object when it is the last argument and its position is not
 * an 'any' one (`ingest`'s payload), or lies beyond the positional ones; an options object in the first
 * position must be the only argument. A value given both positionally and in the options object is refused.
 */
export function callForm<T extends object>(
  args: readonly unknown[],
  names: readonly string[],
  types: readonly ('string' | 'number' | 'array' | 'any')[],
  optionKeys: readonly string[],
): T {
  while (args.length && args[args.length - 1] === undefined) args = args.slice(0, -1);
  if (args.length === 0) return {} as T;
  const first = args[0];
  if (isPlainObject(first) && types[0] !== 'any') {
    if (args.length > 1)
      throw new KbValidationError(
        'invalid_arguments',
        names[1] ?? 'options',
        'unexpected argument after the options object; pass either the options object or positional arguments',
      );
    return optionsOf<T>(first, 'options', optionKeys);
  }
  const lastAt = args.length - 1;
  const last = args[lastAt];
  let options: Record<string, unknown> | undefined;
  if (isPlainObject(last) && (lastAt >= names.length || types[lastAt] !== 'any')) {
    options = optionsOf<Record<string, unknown>>(last, 'options', optionKeys);
    args = args.slice(0, lastAt);
  }
  if (args.length > names.length)
    throw new KbValidationError(
      'invalid_arguments',
      'arguments',
      `takes at most ${names.length} optional arguments (${names.join(', ')}), got ${args.length}`,
    );
  const out: Record<string, unknown> = {};
  args.forEach((v, i) => {
    if (v === undefined || v === null) return;
    const want = types[i]!;
    const ok = want === 'any' || (want === 'array' ? Array.isArray(v) : typeof v === want);
    if (!ok)
      throw new KbValidationError(
        'invalid_type',
        names[i]!,
        `must be ${want === 'array' ? 'an array' : `a ${want}`} (argument ${i + 1} after the required ones)` +
          (i === 0 ? ', or an options object' : ''),
      );
    out[names[i]!] = v;
  });
  for (const [k, v] of Object.entries(options ?? {})) {
    if (v === undefined) continue;
    if (k in out)
      throw new KbValidationError(
        'invalid_arguments',
        `options.${k}`,
        `is given twice: as argument ${names.indexOf(k) + 1} after the required ones and in the options object`,
      );
    out[k] = v;
  }
  return out as T;
}
