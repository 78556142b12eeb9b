// REINVENT 4's ExternalProcess protocol (reinvent_plugins/components/comp_external_process.py): the SMILES go
// to the scorer's stdin joined by newlines (no trailing newline), and its whole stdout is one JSON document
// `{"version": 1, "payload": {"<property>": [one value per SMILES, in order], ...}}`; each endpoint of the
// component reads the list under its `property`, other keys are the scorer's metadata. REINVENT takes the
// values as they come; here each must be a number, a string (for value_mapping) or null (no prediction: NaN),
// and every property's list must have one value per SMILES sent (REINVENT checks the first).
import { ExternalScorerError } from '../errors.js';

export type RawValue = number | string | null;

/** The stdin REINVENT 4 writes: the SMILES joined by newlines. */
export function scorerInput(smiles: readonly string[]): string {
  return smiles.join('\n');
}

/**
 * Python's json module writes NaN, Infinity and -Infinity as bare words (json.dumps of a numpy NaN), which
 * Python's json.loads reads back but JSON.parse refuses: outside strings they become null (no prediction).
 */
function nonFiniteAsNull(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const word = /^-?(?:NaN|Infinity)/.exec(text.slice(i, i + 9));
    if (word) {
      out += 'null';
      i += word[0].length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** The values of each property, in the order of `properties`; throws ExternalScorerError when the output is not as agreed. */
export function parseScorerOutput(
  stdout: string,
  properties: readonly string[],
  count: number,
  command: readonly string[],
  stderr = '',
): RawValue[][] {
  let data: unknown;
  try {
    data = JSON.parse(stdout);
  } catch {
    data = undefined;
  }
  if (data === undefined) {
    try {
      data = JSON.parse(nonFiniteAsNull(stdout));
    } catch (e) {
      const shown = stdout.trim() ? JSON.stringify(stdout.trim().slice(0, 200)) : 'nothing';
      throw new ExternalScorerError('invalid_json', `stdout is not JSON (it printed ${shown})`, command, stderr, {
        cause: e,
      });
    }
  }
  const payload = (data as { payload?: unknown } | null)?.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new ExternalScorerError('invalid_payload', 'stdout has no "payload" object', command, stderr);
  }
  return properties.map((property) => {
    const values = (payload as Record<string, unknown>)[property];
    if (!Array.isArray(values)) {
      const keys = Object.keys(payload).map((k) => JSON.stringify(k));
      throw new ExternalScorerError(
        'invalid_payload',
        `payload has no list "${property}" (its keys: ${keys.join(', ') || 'none'})`,
        command,
        stderr,
      );
    }
    if (values.length !== count) {
      throw new ExternalScorerError(
        'wrong_count',
        `returned ${values.length} values for "${property}" for ${count} SMILES`,
        command,
        stderr,
      );
    }
    return values.map((v, i): RawValue => {
      if (v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
      if (typeof v === 'boolean') return v ? 1 : 0;
      throw new ExternalScorerError(
        'invalid_payload',
        `value ${i} of "${property}" is ${JSON.stringify(v)}, not a number, string or null`,
        command,
        stderr,
      );
    });
  });
}
