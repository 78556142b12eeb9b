// Shared by the docking tests: the tools (or a skip reason: locally a missing tool skips with a message, under
// CI=true it is an error), Debian's Vina test data, and the 2SRC fixture cut down to what the tests dock into.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { inCI } from '@evident/testkit';
import { type DockingTools, findDockingTools } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));

export async function toolsOrSkip(): Promise<{ tools?: DockingTools; skip: string | false }> {
  try {
    return { tools: await findDockingTools(), skip: false };
  } catch (e) {
    const why = `docking tools unavailable: ${(e as Error).message}`;
    if (inCI) throw new Error(`${why} (required when CI=true; .ci/run installs them)`);
    console.error(`# skip: ${why}`);
    return { skip: why };
  }
}

/** Debian's autodock-vina test data: a prepared kinase domain, a ligand (imatinib, STI) and a box. */
export const VINA_TEST_DATA = '/usr/share/doc/autodock-vina/test-data';

export function vinaTestData(): { receptor: string; ligand: string; conf: string; dir: string } | undefined {
  const conf = join(VINA_TEST_DATA, 'conf.txt');
  if (!existsSync(conf)) return undefined;
  return {
    dir: VINA_TEST_DATA,
    conf: readFileSync(conf, 'utf8'),
    ligand: readFileSync(join(VINA_TEST_DATA, 'ligand.pdbqt'), 'utf8'),
    receptor: gunzipSync(readFileSync(join(VINA_TEST_DATA, 'protein.pdbqt.gz'))).toString('utf8'),
  };
}

/** `key = value` lines of a Vina config file. */
export function parseConf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*(\w+)\s*=\s*(\S+)\s*$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

/** 2SRC (c-Src with AMP-PNP), from the wwPDB; see DATA_SOURCES.md. */
export function pdb2src(): string {
  return readFileSync(join(here, 'fixtures', '2src.pdb'), 'utf8');
}

/** One chain's protein atoms: its ATOM records (no waters, no ligands, no modified residues). */
export function chainAtoms(pdb: string, chain: string): string {
  const lines = pdb.split('\n').filter((l) => l.startsWith('ATOM  ') && l[21] === chain);
  return `${lines.join('\n')}\nEND\n`;
}

/** The bounding box of one HETATM residue's atoms, widened by `margin` Å on every side. */
export function ligandBox(pdb: string, resName: string, margin: number): { center: number[]; size: number[] } {
  const xyz = pdb
    .split('\n')
    .filter((l) => l.startsWith('HETATM') && l.slice(17, 20).trim() === resName)
    .map((l) => [Number(l.slice(30, 38)), Number(l.slice(38, 46)), Number(l.slice(46, 54))]);
  if (!xyz.length) throw new Error(`no HETATM ${resName}`);
  const lo = [0, 1, 2].map((k) => Math.min(...xyz.map((a) => a[k]!)));
  const hi = [0, 1, 2].map((k) => Math.max(...xyz.map((a) => a[k]!)));
  return {
    center: lo.map((v, k) => (v + hi[k]!) / 2),
    size: lo.map((v, k) => hi[k]! - v + 2 * margin),
  };
}
