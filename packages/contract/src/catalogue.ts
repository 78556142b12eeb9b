// Each package's error codes in one table: code → HTTP status and meaning. Errors take their status from it (a
// throw site names a code, never a number), its README table is checked against it (check-catalogue.ts), and a
// scan of the package's sources checks that every code thrown there is in it.
import { EvidentError, type EvidentErrorOptions } from './errors.js';

export interface CodeEntry {
  /**
   * The HTTP status a surface answers with; `null`: never an HTTP answer of its own (a failed job's code, an
   * engine's code that a surface re-codes, an error of ours answered as 500 `internal_error`).
   */
  status: number | null;
  /** When it is raised, in a sentence: what the README's table says. */
  meaning: string;
}

export type Catalogue<C extends string = string> = Readonly<Record<C, CodeEntry>>;

const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** A catalogue, frozen; every code snake_case and every status an HTTP error status (4xx, 5xx) or null. */
export function defineCatalogue<const C extends string>(entries: Record<C, CodeEntry>): Catalogue<C> {
  for (const [code, entry] of Object.entries(entries) as [string, CodeEntry][]) {
    if (!SNAKE.test(code)) throw new TypeError(`error code '${code}' is not snake_case`);
    const s = entry.status;
    if (s !== null && !(Number.isInteger(s) && s >= 400 && s <= 599))
      throw new TypeError(`error code '${code}': status ${s} is not an HTTP error status`);
  }
  return Object.freeze(entries);
}

/** Several catalogues as one (a surface answers its own codes and its library's); a code in two must agree. */
export function mergeCatalogues(...catalogues: Catalogue[]): Catalogue {
  const out: Record<string, CodeEntry> = {};
  for (const c of catalogues) {
    for (const [code, entry] of Object.entries(c)) {
      const seen = out[code];
      if (seen && seen.status !== entry.status)
        throw new TypeError(
          `error code '${code}' has status ${seen.status} in one catalogue, ${entry.status} in another`,
        );
      out[code] ??= entry;
    }
  }
  return Object.freeze(out);
}

/** The status a catalogue gives `code` (undefined for null: not an HTTP answer, so a fault of ours if answered). */
export function statusOf<C extends string>(catalogue: Catalogue<C>, code: C): number | undefined {
  const entry = catalogue[code];
  if (!entry) throw new TypeError(`error code '${code}' is not in the catalogue`);
  return entry.status ?? undefined;
}

/** `(code, message, options?) => EvidentError` whose status is the catalogue's: the one way a surface makes one. */
export function errorMaker<C extends string>(catalogue: Catalogue<C>) {
  return (code: C, message: string, options: Omit<EvidentErrorOptions, 'status'> = {}): EvidentError => {
    const status = statusOf(catalogue, code);
    return new EvidentError(code, message, { ...options, ...(status === undefined ? {} : { status }) });
  };
}
