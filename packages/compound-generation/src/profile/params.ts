// Reading a profile's parameters with every problem collected (not just the first), each located by a JSON
// pointer into the document, so that a chemist fixing a file sees all that is wrong at once.
import { pointer } from '@evident/contract';
import type { FieldProblem } from '../errors.js';

export type Problems = FieldProblem[];

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** A pointer extended by segments. */
export const at = (base: string, ...segments: (string | number)[]) => base + pointer(...segments);

/** Describes a value for a message: its JSON text, shortened. */
export function shown(v: unknown): string {
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

export interface NumberRule {
  default?: number;
  /** Inclusive bounds. */
  min?: number;
  max?: number;
  /** Exclusive lower bound. */
  above?: number;
  integer?: boolean;
}

/**
 * The parameters of one endpoint (REINVENT merges the component's `params` with the endpoint's, the endpoint's
 * winning) or of one transform, each with the pointer where it was written.
 */
export class ParamReader {
  private readonly used = new Set<string>();

  constructor(
    private readonly values: ReadonlyMap<string, { value: unknown; path: string }>,
    private readonly problems: Problems,
    /** Where a missing parameter would go (for "missing" problems). */
    private readonly home: string,
  ) {}

  static of(record: Record<string, unknown>, path: string, problems: Problems, skip: readonly string[] = []) {
    const m = new Map<string, { value: unknown; path: string }>();
    for (const [k, v] of Object.entries(record)) if (!skip.includes(k)) m.set(k, { value: v, path: at(path, k) });
    return new ParamReader(m, problems, path);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  pathOf(name: string): string {
    return this.values.get(name)?.path ?? at(this.home, name);
  }

  problem(name: string, message: string): void {
    this.problems.push({ path: this.pathOf(name), message });
  }

  private take(name: string): { value: unknown; path: string } | undefined {
    this.used.add(name);
    return this.values.get(name);
  }

  private missing(name: string, what: string): void {
    this.problems.push({ path: at(this.home, name), message: `${what} is required` });
  }

  number(name: string, rule: NumberRule = {}): number {
    const v = this.take(name);
    if (v === undefined) {
      if (rule.default !== undefined) return rule.default;
      this.missing(name, 'a number');
      return Number.NaN;
    }
    const x = v.value;
    const fail = (m: string) => {
      this.problems.push({ path: v.path, message: m });
      return Number.NaN;
    };
    if (typeof x !== 'number' || !Number.isFinite(x)) return fail(`must be a number (got ${shown(x)})`);
    if (rule.integer && !Number.isInteger(x)) return fail(`must be a whole number (got ${x})`);
    if (rule.min !== undefined && x < rule.min) return fail(`must be at least ${rule.min} (got ${x})`);
    if (rule.max !== undefined && x > rule.max) return fail(`must be at most ${rule.max} (got ${x})`);
    if (rule.above !== undefined && x <= rule.above) return fail(`must be greater than ${rule.above} (got ${x})`);
    return x;
  }

  boolean(name: string, fallback?: boolean): boolean {
    const v = this.take(name);
    if (v === undefined) {
      if (fallback !== undefined) return fallback;
      this.missing(name, 'true or false');
      return false;
    }
    if (typeof v.value !== 'boolean') {
      this.problems.push({ path: v.path, message: `must be true or false (got ${shown(v.value)})` });
      return false;
    }
    return v.value;
  }

  string(name: string, options: { default?: string; oneOf?: readonly string[] } = {}): string {
    const v = this.take(name);
    if (v === undefined) {
      if (options.default !== undefined) return options.default;
      this.missing(name, 'a string');
      return '';
    }
    if (typeof v.value !== 'string') {
      this.problems.push({ path: v.path, message: `must be a string (got ${shown(v.value)})` });
      return '';
    }
    if (options.oneOf && !options.oneOf.includes(v.value)) {
      const list = options.oneOf.map((o) => JSON.stringify(o)).join(', ');
      this.problems.push({ path: v.path, message: `must be one of ${list} (got ${shown(v.value)})` });
      return '';
    }
    return v.value;
  }

  /** A string or a list of strings (REINVENT accepts either for `smarts`), as a list with each item's path. */
  strings(name: string, options: { nonEmpty?: boolean } = {}): Array<{ value: string; path: string }> {
    const v = this.take(name);
    if (v === undefined) {
      this.missing(name, 'a string or a list of strings');
      return [];
    }
    const items = Array.isArray(v.value) ? v.value : [v.value];
    const out: Array<{ value: string; path: string }> = [];
    items.forEach((item, i) => {
      const path = Array.isArray(v.value) ? at(v.path, i) : v.path;
      if (typeof item !== 'string' || item.trim() === '') {
        this.problems.push({ path, message: `must be a non-empty string (got ${shown(item)})` });
      } else out.push({ value: item, path });
    });
    if (options.nonEmpty && items.length === 0) this.problems.push({ path: v.path, message: 'must not be empty' });
    return out;
  }

  /** A table (TOML) / object (JSON). */
  record(name: string): { value: Record<string, unknown>; path: string } | undefined {
    const v = this.take(name);
    if (v === undefined) {
      this.missing(name, 'a table');
      return undefined;
    }
    if (!isRecord(v.value)) {
      this.problems.push({ path: v.path, message: `must be a table (got ${shown(v.value)})` });
      return undefined;
    }
    return { value: v.value, path: v.path };
  }

  /** Reports every parameter that was given but never read (a typo, or a parameter this component lacks). */
  finish(what: string, known?: readonly string[]): void {
    for (const [k, v] of this.values) {
      if (this.used.has(k)) continue;
      const list = known ?? [...this.used];
      const expected = list.length ? ` (${what} takes ${list.join(', ')})` : ` (${what} takes no parameters)`;
      this.problems.push({ path: v.path, message: `unknown parameter "${k}"${expected}` });
    }
  }
}
