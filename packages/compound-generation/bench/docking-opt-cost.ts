// Where a docking call of bench/docking-opt.ts spends its CPU, and whether a cheaper way to compute it scores as
// the standard one does (issue 38, point 7). Molecules: a seeded random sample of the benchmark's pool (the
// ZINC-250k subset the GAs start from and the random screen screens) passing its hard filters. Per molecule:
// the standard preparation (packages/docking prepareLigand: protonation, Open Babel --gen3d, PDBQT) twice, each
// step's CPU timed; then in each pocket, one at a time, Vina at exhaustiveness 1, seed 1:
//   computed      the oracle as it stands (receptor atoms, grid computed by this run, exact final refinement)
//   again         the same on the second preparation: how well the standard oracle agrees with itself
//                 (--gen3d takes no seed, so two preparations are two conformers)
//   no_refine     `--no_refine`: search and final scoring on the grid only
//   maps          `--maps`: the pocket's grid maps written once (DockingSession reuseMaps) and read by each run
//   maps_exact    the maps run's best pose scored by `--score_only` of the best pose against the receptor atoms (an exact final score)
//   fixed         `--max_evals 1`: start-up, receptor, grid and refinement without a search (the fixed part)
// Every variant but `again` docks the first preparation. Prints JSON: per pocket, mean CPU s per step and
// variant, and each variant's agreement with `computed` (Spearman ρ, mean and max |Δ| kcal/mol) beside
// `again`'s, all from this run. --out FILE keeps one JSON line per molecule (resumable: molecules there are
// not run again).
//   nice -n 10 node --conditions=evident-source --import tsx bench/docking-opt-cost.ts --molecules 30
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { loadRDKit } from '@evident/compound-generation';
import { type Box, findDockingTools, parseScoreOnly, parseVinaOutput, prepareLigand } from '@evident/docking';
import { admitsFor } from './docking-opt-filters.js';
import type { Pocket } from './docking-opt-oracle.js';
import { openPocket } from './docking-opt-pockets.js';
import { agreement } from './docking-opt-stats.js';

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    molecules: { type: 'string', default: '10' },
    targets: { type: 'string', default: '2src,1lee' },
    seed: { type: 'string', default: '7' },
    variants: { type: 'string', default: 'computed,again,maps,maps_exact,no_refine,fixed' },
    out: { type: 'string' },
    // Only the figures of the molecules already in --out (no docking).
    report: { type: 'boolean', default: false },
  },
});
const variants = values.variants!.split(',');
if (variants.includes('maps_exact') && !variants.includes('maps')) variants.push('maps');
const targets = values.targets!.split(',');
const tools = await findDockingTools();
const rd = await loadRDKit();
const admits = admitsFor(rd);

/** CPU seconds of finished children (the tools), /proc/self/stat cutime + cstime. */
function childCpu(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[13]) + Number(f[14])) / 100;
}

// The sample: a seeded shuffle of the pool (mulberry32), canonical, admitted by the benchmark's filters.
function sample(n: number, seed: number): string[] {
  const pool = gunzipSync(readFileSync(fileURLToPath(new URL('../data/zinc250k-subset.smi.gz', import.meta.url))))
    .toString('utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out: string[] = [];
  const seen = new Set<string>();
  while (out.length < n) {
    const m = rd.get_mol(pool[Math.floor(rand() * pool.length)]!);
    if (!m) continue;
    const smi = m.get_smiles();
    m.delete();
    if (!seen.has(smi) && admits(smi)) out.push(smi);
    seen.add(smi);
  }
  return out;
}

const pockets: Pocket[] = [];
for (const t of values.report ? [] : targets) {
  const p = await openPocket(t, tools, { exhaustiveness: 1, concurrency: 1, reuseMaps: true });
  pockets.push(p);
}
const work = mkdtempSync(join(tmpdir(), 'docking-opt-cost-'));
const boxArgs = (b: Box) =>
  ['x', 'y', 'z'].flatMap((k, i) => [`--center_${k}`, String(b.center[i]), `--size_${k}`, String(b.size[i])]);

// The session writes its maps on its first docking; its receptor file and map prefix are then on disk.
const mapsCpu: Record<string, number> = {};
const lig0 = await prepareLigand('c1ccccc1CC(=O)N', { tools });
for (const p of pockets) {
  const c = childCpu();
  await p.session.dockLigand(lig0.pdbqt);
  mapsCpu[p.name] = childCpu() - c;
}
process.stderr.write(`maps written (and one docking): ${JSON.stringify(mapsCpu)} CPU s\n`);

async function vina(args: string[]): Promise<{ cpu: number; stdout: string }> {
  const c = childCpu();
  const r = await run(tools.vina.path, args, { maxBuffer: 64 << 20 });
  return { cpu: childCpu() - c, stdout: r.stdout };
}

async function dockVariant(pocket: (typeof pockets)[number], variant: string, pdbqt: string) {
  const lig = join(work, 'ligand.pdbqt');
  const out = join(work, 'out.pdbqt');
  writeFileSync(lig, pdbqt);
  const receptor = join(pocket.session.dir, 'receptor.pdbqt');
  const maps = join(pocket.session.dir, 'maps', 'grid');
  const where = variant.startsWith('maps') ? ['--maps', maps] : ['--receptor', receptor, ...boxArgs(pocket.box)];
  const extra = variant === 'no_refine' ? ['--no_refine'] : variant === 'fixed' ? ['--max_evals', '1'] : [];
  const common = ['--seed', '1', '--exhaustiveness', '1', '--num_modes', '9', '--energy_range', '3', '--cpu', '1'];
  const v = await vina([...where, '--ligand', lig, ...common, ...extra, '--out', out, '--verbosity', '1']);
  const best = parseVinaOutput(readFileSync(out, 'utf8'))[0];
  if (!best) throw new Error('no pose');
  if (variant !== 'maps') return { score: best.affinity_corrected, cpu: v.cpu };
  // maps_exact: the same search, then the best pose scored against the receptor atoms.
  writeFileSync(lig, best.pdbqt);
  const s = await vina(['--receptor', receptor, ...boxArgs(pocket.box), '--ligand', lig, '--score_only']);
  const exact = parseScoreOnly(s.stdout);
  if (!exact) throw new Error('score_only unreadable');
  return { score: best.affinity_corrected, cpu: v.cpu, exact: { score: exact.affinity, cpu: v.cpu + s.cpu } };
}

interface Row {
  smiles: string;
  prep_cpu: Record<string, number>[];
  docks: Record<string, Record<string, { score: number; cpu: number } | { error: string }>>;
}
const rows: Row[] = [];
if (values.out && existsSync(values.out)) {
  for (const l of readFileSync(values.out, 'utf8').split('\n')) if (l.trim()) rows.push(JSON.parse(l) as Row);
}
const load = [loadavg()[0]!];
const molecules = values.report ? [] : sample(Number(values.molecules), Number(values.seed));
try {
  for (const smiles of molecules) {
    if (rows.some((r) => r.smiles === smiles)) continue;
    const prep_cpu: Record<string, number>[] = [];
    const ligands: string[] = [];
    try {
      for (let k = 0; k < 2; k++) {
        const steps: Record<string, number> = {};
        let c = childCpu();
        const l = await prepareLigand(smiles, {
          tools,
          timeoutMs: 1_800_000,
          onStep: (s) => {
            const now = childCpu();
            steps[s] = Math.round((now - c) * 100) / 100;
            c = now;
          },
        });
        prep_cpu.push(steps);
        ligands.push(l.pdbqt);
      }
    } catch (e) {
      process.stderr.write(`${smiles}: preparation failed: ${(e as Error).message.slice(0, 200)}\n`);
      continue;
    }
    const docks: Row['docks'] = {};
    for (const p of pockets) {
      docks[p.name] = {};
      for (const v of variants) {
        if (v === 'maps_exact') continue; // made by the maps run
        try {
          const d = await dockVariant(p, v === 'again' ? 'computed' : v, ligands[v === 'again' ? 1 : 0]!);
          docks[p.name]![v] = { score: d.score, cpu: d.cpu };
          if (d.exact) docks[p.name]!.maps_exact = d.exact;
        } catch (e) {
          docks[p.name]![v] = { error: (e as Error).message.slice(0, 200) };
        }
      }
    }
    const row = { smiles, prep_cpu, docks };
    rows.push(row);
    if (values.out) appendFileSync(values.out, `${JSON.stringify(row)}\n`);
    load.push(loadavg()[0]!);
    process.stderr.write(`${rows.length} ${smiles} ${JSON.stringify(docks)}\n`);
  }
} finally {
  for (const p of pockets) await p.session.close();
  rmSync(work, { recursive: true, force: true });
}

const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)) * 100) / 100;
const stepNames = [...new Set(rows.flatMap((r) => r.prep_cpu.flatMap((s) => Object.keys(s))))];
const report = {
  benchmark: 'docking oracle: CPU per step and agreement of cheaper variants with the standard call',
  molecules: rows.length,
  preparation_cpu_s: Object.fromEntries(
    stepNames.map((s) => [s, mean(rows.flatMap((r) => r.prep_cpu.map((p) => p[s] ?? 0)))]),
  ),
  per_pocket: Object.fromEntries(
    targets.map((name) => {
      const ok = (r: Row, v: string) => {
        const d = r.docks[name]?.[v];
        return d && 'score' in d ? d : undefined;
      };
      return [
        name,
        {
          maps_written_cpu_s: mapsCpu[name],
          docking_cpu_s: Object.fromEntries(
            variants.map((v) => [v, mean(rows.flatMap((r) => (ok(r, v) ? [ok(r, v)!.cpu] : [])))]),
          ),
          agreement_with_computed: Object.fromEntries(
            variants
              .filter((v) => v !== 'computed' && v !== 'fixed')
              .map((v) => {
                const pairs = rows.flatMap((r) => {
                  const a = ok(r, 'computed');
                  const b = ok(r, v);
                  return a && b ? [[a.score, b.score] as [number, number]] : [];
                });
                return [v, agreement(pairs)];
              }),
          ),
          failures: Object.fromEntries(variants.map((v) => [v, rows.filter((r) => !ok(r, v)).length])),
        },
      ];
    }),
  ),
  load_average_1min: { start: load[0], end: load.at(-1), max: Math.max(...load) },
  date: new Date().toISOString(),
};
console.log(JSON.stringify(report, null, 2));
