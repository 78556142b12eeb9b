// The wwPDB entries of ./fixtures (see ../DATA_SOURCES.md), read once per test file.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseStructure, type Structure } from '@evident/protein-structure';

const here = dirname(fileURLToPath(import.meta.url));

export const fixtureText = (name: '2src.pdb' | '1lee.pdb' | '3pqr.pdb' | '3PQR.cif') =>
  readFileSync(join(here, 'fixtures', name), 'utf8');

const cache = new Map<string, Structure>();
export function fixture(name: '2src.pdb' | '1lee.pdb' | '3pqr.pdb' | '3PQR.cif'): Structure {
  let s = cache.get(name);
  if (!s) {
    s = parseStructure(fixtureText(name));
    cache.set(name, s);
  }
  return s;
}

/** The records of a PDB text whose columns 1–6 are `record` (test-side reading, independent of the parser). */
export const records = (text: string, record: string) =>
  text.split('\n').filter((l) => l.slice(0, 6).trimEnd() === record);

/** The error a call throws, for assertions on its code and problems. */
export function thrown(fn: () => unknown): {
  code: string;
  status: number;
  problems: { path: string; message: string }[];
} {
  try {
    fn();
  } catch (e) {
    return e as never;
  }
  throw new Error('expected an error');
}
