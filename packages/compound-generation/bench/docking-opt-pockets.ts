// The benchmark's two pockets (bench/docking-opt.ts and the oracle-cost study bench/docking-opt-cost.ts), made as
// bench/target.ts and the job service make them (analyseTarget: the chain holding the named residues, box around
// them). UniProt numbering by each file's DBREF: c-Src's ATP site (crystal ligand AMP-PNP) and plasmepsin II's
// active site (crystal inhibitor RS367, HETNAM R36).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyseTarget, validateRequest } from '@evident/compound-generation';
import { DockingSession, type DockingTools } from '@evident/docking';
import { TIMEOUT_MS, type Pocket } from './docking-opt-oracle.js';

export const TARGETS: Record<string, { target_uniprot: string; residues: string[]; file: string }> = {
  '2src': { target_uniprot: 'P12931', residues: ['K297', 'T340', 'M343'], file: '2src.pdb' },
  '1lee': { target_uniprot: 'P46925', residues: ['D158', 'D338', 'Y201'], file: '1lee.pdb' },
};

const fixture = (f: string) =>
  readFileSync(fileURLToPath(new URL(`../../protein-structure/test/fixtures/${f}`, import.meta.url)));

/** One DockingSession per pocket; the receptor is prepared once (Open Babel) and kept in the session's directory. */
export async function openPocket(
  name: string,
  tools: DockingTools,
  o: { exhaustiveness: number; concurrency: number; reuseMaps?: boolean },
): Promise<Pocket> {
  const t = TARGETS[name];
  if (!t) throw new Error(`unknown target ${name}; known: ${Object.keys(TARGETS).join(', ')}`);
  const input = await validateRequest({
    target_uniprot: t.target_uniprot,
    binding_site: { residues: t.residues },
    structure: fixture(t.file).toString('base64'),
  });
  const site = analyseTarget(
    input.target.structure!,
    { uniprot: input.target_uniprot, residues: input.residues, target: input.target },
    { id: t.file, source: 'request' },
  );
  const session = await DockingSession.open({
    receptor: { pdb: site.receptorPdb },
    box: site.box,
    exhaustiveness: o.exhaustiveness,
    concurrency: o.concurrency,
    timeoutMs: TIMEOUT_MS,
    tools,
    ...(o.reuseMaps ? { reuseMaps: true } : {}),
  });
  return { name, session, box: site.box };
}

/** CPU seconds of this process plus its finished children (/proc/self/stat cutime + cstime, Linux). */
export function cpuSeconds(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    children = (Number(f[13]) + Number(f[14])) / 100; // fields 16, 17 of proc(5), in USER_HZ (100)
  } catch {
    /* not Linux: own CPU only */
  }
  return (own.user + own.system) / 1e6 + children;
}
