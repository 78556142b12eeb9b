// The cost of docking on the 2SRC ATP site (chain A, box = AMP-PNP + 5 Å), per ligand, at exhaustiveness
// 1 / 4 / 8 with one CPU thread per docking (a session's default), through DockingSession.dockLigand. Baseline:
// the plain `vina` command line on the same prepared files, seed and settings, in the same run, at exhaustiveness
// 1 (what it measures, the wrapper's overhead per call, does not grow with exhaustiveness; running it at 4 and 8
// too would double the benchmark's time). Also the one-off costs: receptor and ligand preparation.
// Wall seconds depend on the machine's load; CPU seconds of the child processes (Linux: cutime + cstime of this
// process, which Node accrues when it reaps a child) much less, so both are reported.
// Also, per ligand: ligand preparation step by step (CPU of the Open Babel children plus this process's own for
// the RDKit steps), and at exhaustiveness 1 the same docking with session grid maps (`reuseMaps`) against the
// computed grid in the same run, with the maps pose re-scored exactly (`scoreOnly` on the receptor).
// DOCKING_BENCH_EXHAUSTIVENESS=1,4 runs fewer levels (default 1,4,8).
import { execFile } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DockingSession, findDockingTools, prepareLigand, prepareReceptor } from '../src/index.js';
import { writeMaps } from '../src/vina/maps.js';
import { chainAtoms, ligandBox, pdb2src } from '../test/helpers.js';

const LIGANDS: Record<string, string> = {
  // PP1, a small Src inhibitor (21 heavy atoms, 1 rotatable bond).
  PP1: 'Cc1ccc(cc1)-c1nn(C(C)(C)C)c2ncnc(N)c12',
  // Dasatinib, a drug-sized Src/Abl inhibitor (33 heavy atoms, 7 rotatable bonds).
  dasatinib: 'Cc1nc(Nc2ncc(s2)C(=O)Nc2c(C)cccc2Cl)cc(n1)N1CCN(CCO)CC1',
};
const EXHAUSTIVENESS = (process.env.DOCKING_BENCH_EXHAUSTIVENESS ?? '1,4,8').split(',').map(Number);
const SEED = 1;

const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

/** CPU seconds used so far by reaped child processes (Linux /proc/self/stat cutime + cstime, 100 ticks/s). */
function childCpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
const round = (x: number) => Math.round(x * 100) / 100;
/** This process's own CPU seconds (the RDKit steps run in it). */
const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const tools = await findDockingTools();
const pdb = pdb2src();
const box = ligandBox(pdb, 'ANP', 5);
const load0 = loadavg();

let t0 = process.hrtime.bigint();
const receptor = await prepareReceptor(chainAtoms(pdb, 'A'), { tools });
const receptorSeconds = seconds(t0);

const session = await DockingSession.open({ receptor: { pdbqt: receptor.pdbqt }, box, seed: SEED, cpu: 1, tools });
const mapsSession = await DockingSession.open({
  receptor: { pdbqt: receptor.pdbqt },
  box,
  seed: SEED,
  cpu: 1,
  tools,
  reuseMaps: true,
});
const scratch = mkdtempSync(join(tmpdir(), 'docking-bench-'));
writeFileSync(join(scratch, 'receptor.pdbqt'), receptor.pdbqt);
// The one-off cost of the map set (the maps session writes its own on its first docking).
t0 = process.hrtime.bigint();
let mapsCpu0 = childCpu();
await writeMaps(join(scratch, 'maps'), join(scratch, 'receptor.pdbqt'), box, tools);
const mapsWrite = { seconds: round(seconds(t0)), cpu_seconds: round(childCpu() - mapsCpu0) };
await mapsSession.dockLigand((await prepareLigand(LIGANDS.PP1!, { tools })).pdbqt, { exhaustiveness: 1 });

const rows: unknown[] = [];
try {
  for (const [name, smiles] of Object.entries(LIGANDS)) {
    t0 = process.hrtime.bigint();
    const steps: { step: string; seconds: number; cpu_seconds: number }[] = [];
    let mark = { t: process.hrtime.bigint(), cpu: childCpu() + ownCpu() };
    const ligand = await prepareLigand(smiles, {
      tools,
      id: name,
      onStep: (step) => {
        const now = { t: process.hrtime.bigint(), cpu: childCpu() + ownCpu() };
        steps.push({ step, seconds: round(seconds(mark.t)), cpu_seconds: round(now.cpu - mark.cpu) });
        mark = now;
      },
    });
    const prepSeconds = seconds(t0);
    const prepCpu = steps.reduce((a, s) => a + s.cpu_seconds, 0);
    writeFileSync(join(scratch, `${name}.pdbqt`), ligand.pdbqt);
    for (const exhaustiveness of EXHAUSTIVENESS) {
      t0 = process.hrtime.bigint();
      let cpu0 = childCpu();
      const mine = await session.dockLigand(ligand.pdbqt, { id: name, exhaustiveness });
      const dockSeconds = seconds(t0);
      const dockCpu = childCpu() - cpu0;
      const row: Record<string, unknown> = {
        ligand: name,
        heavy_atoms: ligand.heavy_atoms,
        torsions: ligand.torsions,
        exhaustiveness,
        seconds_per_ligand: round(dockSeconds),
        cpu_seconds_per_ligand: round(dockCpu),
        affinity: mine.affinity,
        ligand_preparation_seconds: round(prepSeconds),
        ligand_preparation_cpu_seconds: round(prepCpu),
        ligand_preparation_steps: steps,
      };
      if (exhaustiveness === 1) {
        // Baseline: the vina executable as a user runs it, same files and settings.
        const args = [
          ...['--receptor', 'receptor.pdbqt', '--ligand', `${name}.pdbqt`, '--out', `${name}-out.pdbqt`],
          ...['center_x', 'center_y', 'center_z'].flatMap((k, i) => [`--${k}`, String(box.center[i])]),
          ...['size_x', 'size_y', 'size_z'].flatMap((k, i) => [`--${k}`, String(box.size[i])]),
          ...['--seed', String(SEED), '--exhaustiveness', String(exhaustiveness), '--cpu', '1'],
        ];
        t0 = process.hrtime.bigint();
        cpu0 = childCpu();
        const { stdout } = await promisify(execFile)(tools.vina.path, args, { cwd: scratch });
        const cliSeconds = seconds(t0);
        row.baseline_vina_cli_seconds = round(cliSeconds);
        row.baseline_vina_cli_cpu_seconds = round(childCpu() - cpu0);
        row.ratio = round(dockSeconds / cliSeconds);
        row.cpu_ratio = round(dockCpu / (childCpu() - cpu0));
        row.baseline_affinity = Number(/^\s+1\s+(-?\d+(?:\.\d+)?)/m.exec(stdout)?.[1]);
        // Session grid maps, same ligand and seed; the first maps docking already happened (maps written).
        t0 = process.hrtime.bigint();
        mapsCpu0 = childCpu();
        const viaMaps = await mapsSession.dockLigand(ligand.pdbqt, { id: name, exhaustiveness });
        row.maps_seconds = round(seconds(t0));
        const mapsCpu = childCpu() - mapsCpu0;
        row.maps_cpu_seconds = round(mapsCpu);
        row.maps_affinity = viaMaps.affinity;
        row.maps_pose_rescored_exactly = (await session.scoreOnly(viaMaps.poses[0]!.pdbqt)).affinity;
        row.maps_cpu_ratio = round(mapsCpu / dockCpu);
      }
      rows.push(row);
      process.stderr.write(`${JSON.stringify(rows.at(-1))}\n`);
    }
  }
} finally {
  await session.close();
  await mapsSession.close();
  rmSync(scratch, { recursive: true, force: true });
}

console.log(
  JSON.stringify(
    {
      benchmark: 'docking cost on the 2SRC ATP site (vina --cpu 1 per ligand)',
      machine: { cpu: cpus()[0]?.model, cores: cpus().length, loadavg_start: load0, loadavg_end: loadavg() },
      vina: tools.vina.version,
      obabel: tools.obabel.version,
      box,
      receptor_preparation_seconds: round(receptorSeconds),
      receptor_atoms: receptor.atoms,
      maps_write: mapsWrite,
      rows,
    },
    null,
    2,
  ),
);
