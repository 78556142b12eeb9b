// From text to the scoring section of a REINVENT 4 configuration. Accepted, unchanged: a whole run
// configuration with a `[scoring]` table (run_type "scoring"), a staged-learning one (`[[stage]]` with
// `[stage.scoring]`: the stage is chosen by index), or a component file (`[[component]]` at the top, as a
// `scoring.filename` names). TOML (smol-toml) or its JSON form (REINVENT's toml2json).
import { parse as parseToml, TomlError } from 'smol-toml';
import { InvalidProfileError } from './errors.js';
import { at, isRecord } from './params.js';

export type ProfileFormat = 'toml' | 'json';

/** Parses TOML or JSON (JSON when `format` says so, or when the text starts with `{`). */
export function readDocument(
  text: string,
  format: ProfileFormat | undefined,
  source?: string,
): Record<string, unknown> {
  const json = format ? format === 'json' : text.trimStart().startsWith('{');
  let doc: unknown;
  try {
    doc = json ? JSON.parse(text) : parseToml(text);
  } catch (e) {
    const where = e instanceof TomlError ? ` at line ${e.line}, column ${e.column}` : '';
    const first = (e as Error).message.split('\n')[0];
    throw new InvalidProfileError(
      [{ path: '', message: `not valid ${json ? 'JSON' : 'TOML'}${where}: ${first}` }],
      source,
      { cause: e },
    );
  }
  if (!isRecord(doc)) throw new InvalidProfileError([{ path: '', message: 'must be a table (a JSON object)' }], source);
  return doc;
}

export interface ScoringSection {
  section: Record<string, unknown>;
  /** JSON pointer of the section in the document ('' for a component file). */
  path: string;
}

/** The scoring section of a document, or the reason there is none. */
export function findScoringSection(doc: Record<string, unknown>, stage?: number): ScoringSection | string {
  if (doc.scoring !== undefined) {
    if (!isRecord(doc.scoring)) return '/scoring must be a table';
    return { section: doc.scoring, path: '/scoring' };
  }
  if (Array.isArray(doc.stage)) {
    const stages = doc.stage;
    if (stage === undefined && stages.length !== 1) {
      return `/stage: this staged-learning file has ${stages.length} stages: choose one (options.stage, from 0)`;
    }
    const i = stage ?? 0;
    if (!Number.isInteger(i) || i < 0 || i >= stages.length) return `/stage: there is no stage ${i}`;
    const s = stages[i];
    if (!isRecord(s) || !isRecord(s.scoring)) return `${at('/stage', i)}: the stage has no scoring table`;
    return { section: s.scoring, path: at('/stage', i, 'scoring') };
  }
  if (Array.isArray(doc.component)) return { section: doc, path: '' };
  return 'no scoring section: expected a [scoring] table with [[scoring.component]] entries, [[stage]] entries with [stage.scoring], or [[component]] entries';
}
