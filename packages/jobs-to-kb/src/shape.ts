// Reading a results document defensively: it crossed a wire, so every field the mapping uses is checked and a
// missing one is named by its JSON pointer. A handful of fields, hence by hand rather than a schema library.
import type { Problem } from '@evident/contract';

export type Doc = Record<string, unknown>;

export class Reader {
  readonly problems: Problem[] = [];

  object(v: unknown, path: string): Doc {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Doc;
    this.problems.push({ path, message: 'must be an object' });
    return {};
  }

  array(v: unknown, path: string): unknown[] {
    if (Array.isArray(v)) return v;
    this.problems.push({ path, message: 'must be an array' });
    return [];
  }

  string(v: unknown, path: string): string {
    if (typeof v === 'string' && v !== '') return v;
    this.problems.push({ path, message: 'must be a non-empty string' });
    return '';
  }

  number(v: unknown, path: string): number {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    this.problems.push({ path, message: 'must be a finite number' });
    return Number.NaN;
  }
}

/** A finite number, or undefined (optional figures such as a docking score that may not exist yet). */
export const optionalNumber = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

export const optionalString = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
