// Receptor preparation: protein PDB text → rigid receptor PDBQT, all by Open Babel. Open Babel adds hydrogens
// with its pH model (acids and bases charged as at the given pH), then assigns Gasteiger charges and AutoDock
// atom types, merges non-polar hydrogens and writes a rigid molecule (-xr: no torsion tree). RDKit has no PDBQT writer
// and no pH model, so this step has one candidate.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DockingFailedError } from '../errors.js';
import { checkNumber, checkText, countAtomRecords, DOCKING_LIMITS, Problems } from '../limits.js';
import { withTempDir } from '../process/temp.js';
import { runTool } from '../process/run.js';
import { type DockingTools, findDockingTools } from '../tools/find.js';

export interface PrepareReceptorOptions {
  /** pH for Open Babel's protonation model (default 7.4). */
  ph?: number;
  tools?: DockingTools;
  signal?: AbortSignal;
  /** Default 120 s. */
  timeoutMs?: number;
}

export interface PreparedReceptor {
  pdbqt: string;
  /** ATOM/HETATM records written (heavy atoms and polar hydrogens). */
  atoms: number;
  /** Open Babel's warnings (e.g. a residue it could not kekulize), for the record. */
  warnings: string[];
}

export async function prepareReceptor(pdb: string, options: PrepareReceptorOptions = {}): Promise<PreparedReceptor> {
  const p = new Problems();
  if (checkText(pdb, '/receptor', DOCKING_LIMITS.receptorChars, p)) {
    const atoms = countAtomRecords(pdb);
    if (pdb.split('\n').every((l) => !l.startsWith('ATOM  ')))
      p.add('/receptor', 'has no ATOM records (no protein atoms)');
    else if (atoms > DOCKING_LIMITS.receptorAtoms) {
      p.add('/receptor', `has ${atoms} atoms; at most ${DOCKING_LIMITS.receptorAtoms} are accepted`);
    }
  }
  checkNumber(options.ph, '/ph', 0, 14, p);
  p.throwIfAny();
  const tools = options.tools ?? (await findDockingTools());
  const ph = options.ph ?? 7.4;
  return withTempDir('receptor', async (dir) => {
    const input = join(dir, 'receptor.pdb');
    const protonated = join(dir, 'protonated.pdb');
    const output = join(dir, 'receptor.pdbqt');
    await writeFile(input, pdb);
    const run = async (step: string, args: string[]) => {
      const r = await runTool(tools.obabel.path, args, {
        step,
        timeoutMs: options.timeoutMs ?? 120_000,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const converted = moleculesConverted(r.stderr);
      if (converted !== 1) {
        throw new DockingFailedError(`Open Babel converted ${converted ?? 'no'} molecules, expected 1`, {
          step,
          stderr: r.stderr,
        });
      }
      return obabelWarnings(r.stderr);
    };
    // Two commands: in one, Open Babel computes the charges before -p adds the hydrogens, which then carry
    // charge 0. The PDB in between keeps residues and formal charges (columns 79-80).
    const warnings = [
      ...(await run('receptor protonation (Open Babel -p)', [
        '-ipdb',
        input,
        '-p',
        String(ph),
        '-opdb',
        '-O',
        protonated,
      ])),
      ...(await run('receptor PDBQT (Open Babel)', [
        '-ipdb',
        protonated,
        '-xr',
        '--partialcharge',
        'gasteiger',
        '-opdbqt',
        '-O',
        output,
      ])),
    ];
    const pdbqt = await readFile(output, 'utf8');
    const atoms = countAtomRecords(pdbqt);
    if (atoms === 0) throw new DockingFailedError('Open Babel wrote no atoms', { step: 'receptor PDBQT (Open Babel)' });
    return { pdbqt, atoms, warnings: [...new Set(warnings)] };
  });
}

/** "N molecules converted" from Open Babel's stderr. */
export function moleculesConverted(stderr: string): number | undefined {
  const m = /(\d+) molecules? converted/.exec(stderr);
  return m ? Number(m[1]) : undefined;
}

/** Open Babel's warning blocks, one line each ("Failed to kekulize aromatic bonds in …"). */
export function obabelWarnings(stderr: string): string[] {
  const out: string[] = [];
  const lines = stderr.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (/\*\*\* Open Babel (Warning|Error)/.test(lines[i]!)) {
      const next = lines[i + 1]?.trim();
      if (next) out.push(next);
    }
  }
  return out;
}
