// Docking is Vina's own: on Debian's prepared test system (a kinase domain, imatinib, the box in conf.txt),
// dock() gives the best affinity the plain `vina --config` command line gives with the same seed, and a returned
// pose re-scored with `vina --score_only` reproduces the energies the docking reported for it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { dock, scoreOnly } from '../src/index.js';
import { inCI } from '@evident/testkit';
import { parseConf, toolsOrSkip, VINA_TEST_DATA, vinaTestData } from './helpers.js';

const { tools, skip: toolSkip } = await toolsOrSkip();
const data = vinaTestData();
const dataSkip = data ? false : `Debian's Vina test data missing at ${VINA_TEST_DATA} (apt-get install autodock-vina)`;
if (dataSkip && !toolSkip && inCI) throw new Error(dataSkip);
if (dataSkip) console.error(`# skip: ${dataSkip}`);
const skip = toolSkip || dataSkip;

const SEED = 20240611;
// Exhaustiveness 1 keeps each run short (imatinib: ~17 CPU seconds); both runs use the same, as they must.
const EXHAUSTIVENESS = 1;
const scratch = mkdtempSync(join(tmpdir(), 'docking-ref-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The command line as a user would type it in the test-data directory: Debian's conf.txt plus seed and effort. */
async function vinaCommandLine(): Promise<number> {
  const d = data!;
  writeFileSync(join(scratch, 'conf.txt'), d.conf);
  writeFileSync(join(scratch, 'protein.pdbqt'), d.receptor);
  copyFileSync(join(d.dir, 'ligand.pdbqt'), join(scratch, 'ligand.pdbqt'));
  const args = [
    '--config',
    'conf.txt',
    '--seed',
    String(SEED),
    '--exhaustiveness',
    String(EXHAUSTIVENESS),
    '--cpu',
    '1',
  ];
  const { stdout } = await promisify(execFile)(tools!.vina.path, args, { cwd: scratch });
  // The result table's first row: "   1       -10.83          0          0".
  const row = /^\s+1\s+(-?\d+(?:\.\d+)?)\s+0\s+0\s*$/m.exec(stdout);
  assert.ok(row, `no result table in vina's output:\n${stdout}`);
  return Number(row[1]);
}

test('dock() reproduces the vina command line on the same inputs and seed', { skip }, async () => {
  const d = data!;
  const conf = parseConf(d.conf);
  const box = {
    center: [Number(conf.center_x), Number(conf.center_y), Number(conf.center_z)],
    size: [Number(conf.size_x), Number(conf.size_y), Number(conf.size_z)],
  };
  const [cli, mine] = await Promise.all([
    vinaCommandLine(),
    dock({ receptor: d.receptor, ligand: d.ligand, box, seed: SEED, exhaustiveness: EXHAUSTIVENESS, cpu: 1, tools }),
  ]);
  assert.ok(Number.isFinite(cli) && cli < 0, `the command line's best affinity ${cli}`);
  assert.ok(Math.abs(mine.affinity - cli) <= 0.1, `dock() ${mine.affinity} vs vina command line ${cli}`);
  assert.equal(mine.seed, SEED);
  assert.equal(mine.poses[0]!.affinity, mine.affinity);
  for (let i = 1; i < mine.poses.length; i++) {
    assert.ok(mine.poses[i]!.affinity >= mine.poses[i - 1]!.affinity, 'poses come best first');
    assert.ok(mine.poses[i]!.affinity <= mine.affinity + 3 + 1e-9, 'within the default energy range');
  }

  // Re-scoring, on the same grid box. Vina's docking affinity for a pose is
  //   f(INTER + INTRA − UNBOUND),  f(e) = e / (1 + w·N_rot)
  // with UNBOUND the best pose's internal energy; --score_only takes the input pose itself as the unbound
  // state, so its estimate is f(INTER). What is comparable: score_only's intermolecular energy with the pose's
  // REMARK INTER, and the reported affinity rebuilt from score_only's terms and the run's UNBOUND.
  for (const pose of [mine.poses[0]!, mine.poses.at(-1)!]) {
    const s = await scoreOnly({ receptor: d.receptor, ligand: pose.pdbqt, box, tools });
    assert.ok(
      Math.abs(s.intermolecular - pose.intermolecular) <= 0.1,
      `INTER ${pose.intermolecular} vs ${s.intermolecular}`,
    );
    assert.ok(
      Math.abs(s.intramolecular - pose.intramolecular) <= 0.1,
      `INTRA ${pose.intramolecular} vs ${s.intramolecular}`,
    );
    const normalise = s.affinity / s.intermolecular; // 1 / (1 + w·N_rot)
    assert.ok(normalise > 0 && normalise < 1, `torsion normalisation ${normalise}`);
    const rebuilt = (s.intermolecular + s.intramolecular - pose.unbound) * normalise;
    assert.ok(Math.abs(rebuilt - pose.affinity) <= 0.1, `reported ${pose.affinity} vs re-scored ${rebuilt}`);
    // With the best pose's INTRA as the reference (what Vina releases after 1.2.3 print; Debian's 1.2.3 may not).
    const corrected = (s.intermolecular + s.intramolecular - mine.poses[0]!.intramolecular) * normalise;
    assert.ok(
      Math.abs(corrected - pose.affinity_corrected) <= 0.1,
      `corrected ${pose.affinity_corrected} vs re-scored ${corrected}`,
    );
  }
  // So the best pose's corrected affinity is exactly what --score_only gives it.
  const best = await scoreOnly({ receptor: d.receptor, ligand: mine.poses[0]!.pdbqt, box, tools });
  assert.equal(mine.affinity_corrected, mine.poses[0]!.affinity_corrected);
  assert.ok(
    Math.abs(best.affinity - mine.affinity_corrected) <= 0.1,
    `corrected ${mine.affinity_corrected} vs --score_only ${best.affinity}`,
  );
});
