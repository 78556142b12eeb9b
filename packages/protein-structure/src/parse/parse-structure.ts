// The one entry for structure text: bound the size, pick the format, read the first model, refuse what holds
// no protein.
import { inputError } from '../errors.js';
import type { Structure, StructureFormat } from '../model/types.js';
import type { StructureBuilder } from './builder.js';
import { CifSyntaxError } from './cif-reader.js';
import { readMmcif } from './mmcif.js';
import { readPdb } from './pdb.js';

/**
 * 50 million characters: a single-model mmCIF of ~400,000 atoms, far beyond any receptor one docks into
 * (the beta2 adrenergic receptor–Gs complex 3SN6 is 2.2 MB) while keeping a hostile upload's memory bounded.
 */
export const MAX_STRUCTURE_CHARS = 50_000_000;

export interface ParseOptions {
  /** Detected when absent: mmCIF when the first line that is not blank or a comment starts with `data_`. */
  format?: StructureFormat;
  /** The request field the text came from, for error paths (default `structure`). */
  field?: string;
  /** Lower the size bound (it cannot be raised above MAX_STRUCTURE_CHARS). */
  maxChars?: number;
}

export function detectFormat(text: string): StructureFormat {
  const m = /^(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*(\S*)/.exec(text.slice(0, 4096));
  return /^data_/i.test(m?.[1] ?? '') ? 'mmcif' : 'pdb';
}

export function parseStructure(text: string, options: ParseOptions = {}): Structure {
  const field = options.field ?? 'structure';
  const maxChars = Math.min(options.maxChars ?? MAX_STRUCTURE_CHARS, MAX_STRUCTURE_CHARS);
  if (typeof text !== 'string') throw inputError(field, 'must be PDB or mmCIF text');
  if (text.length > maxChars) {
    throw inputError(field, `is ${text.length} characters; at most ${maxChars} are read (one model of one entry)`);
  }
  if (text.trim() === '') throw inputError(field, 'is empty');
  if (text.includes('\u0000')) throw inputError(field, 'holds NUL bytes: binary data, not PDB or mmCIF text');
  const format = options.format ?? detectFormat(text);
  if (format !== 'pdb' && format !== 'mmcif') throw inputError('format', `must be 'pdb' or 'mmcif', not ${format}`);

  let builder: StructureBuilder;
  try {
    builder = format === 'pdb' ? readPdb(text, field) : readMmcif(text, field);
  } catch (e) {
    if (e instanceof CifSyntaxError) throw inputError(field, `is not readable mmCIF: ${e.message}`);
    throw e;
  }
  if (builder.atomCount === 0) {
    throw inputError(field, `is not a ${format === 'pdb' ? 'PDB' : 'mmCIF'} structure: it holds no atom records`);
  }
  const structure = builder.build();
  if (!structure.chains.some((c) => c.protein)) {
    const names = [...new Set(structure.het_groups.map((g) => g.name))].slice(0, 5).join(', ');
    throw inputError(
      field,
      `has no protein atoms: no chain holds an amino acid with a CA atom${names ? ` (only ${names})` : ''}`,
    );
  }
  return structure;
}
