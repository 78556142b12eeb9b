// Derived data kept beside a base's file (`<base>.vectors/`, `<base>.search/`, `<base>.graph`,
// `<base>.topology.json`, ...). Only an SQLite base on a file has a "beside": SQLite's in-memory database
// (`:memory:`) and a PostgreSQL URL have none, so their derived data stays in memory and no file name is ever
// made from them (it used to be: `:memory:.vectors/` in the working directory). One decision for every stage.
/** The path of a base held in memory alone (SQLite's name for it): nothing of it is ever written to disk. */
export const MEMORY = ':memory:';

/** Whether `path` names SQLite's in-memory database rather than a file. */
export function isMemoryPath(path: string): boolean {
  return path === MEMORY;
}

/** The file path derived data may be kept beside, or undefined when the base keeps it in memory only. */
export function filesBeside(store: { readonly backend: string; readonly location: string }): string | undefined {
  return store.backend === 'sqlite' && !isMemoryPath(store.location) ? store.location : undefined;
}

/**
 * `<base><suffix>`: the name of a file or folder kept beside the base. Refuses a base with no file (a caller that
 * skipped filesBeside): a name made from `:memory:` or a URL would land in the working directory.
 */
export function sideFile(base: string, suffix: string): string {
  if (isMemoryPath(base) || /^[a-z][a-z0-9+.-]*:\/\//i.test(base)) {
    // A bug of ours, never the caller's: thrown where a save or load already tolerates a failure.
    throw new Error(`no file is kept beside ${isMemoryPath(base) ? base : 'a PostgreSQL base'}`);
  }
  return `${base}${suffix}`;
}
