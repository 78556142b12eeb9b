// Held-out check (issue 38): the external script must score as the repository's own PMO profiles do, or one of
// the two is wrong. Scores every 1,000th molecule of the ZINC pool plus the references through both and prints the
// largest difference per task. Run from the repository root:
//   node --conditions=evident-source --import tsx packages/compound-generation/bench/heldout/check-agreement.ts
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseScoringProfile } from '../../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..', '..');
const pool = gunzipSync(readFileSync(join(pkg, 'data', 'zinc250k-subset.smi.gz')))
  .toString()
  .split('\n');
const smiles = pool.filter((_, i) => i % 1000 === 0).map((line) => line.split(/\s+/)[0] ?? '');
smiles.push(
  'CC(C)C1CCC(C)CC1O',
  'CC1(C)C2CCC1(C)C(=O)C2',
  'COc1ccc2[C@H]3CC[C@@]4(C)[C@@H](CC[C@@]4(O)C#C)[C@@H]3CCc2c1',
  'not_a_smiles',
);
const python = process.env.PYTHON ?? '/usr/bin/python3';
for (const task of ['median1', 'mestranol_similarity']) {
  const file = join(pkg, 'profiles', 'pmo', `${task}.toml`);
  const profile = await parseScoringProfile(readFileSync(file, 'utf8'), { source: file });
  const ours = (await profile.score(smiles)).map((r) => r.total);
  profile.dispose();
  const out = execFileSync(python, [join(here, 'pmo_heldout.py'), task], { input: smiles.join('\n') });
  const theirs = (JSON.parse(out.toString()) as { payload: { predictions: number[] } }).payload.predictions;
  const diffs = ours.map((score, i) => Math.abs(score - (theirs[i] ?? Number.NaN)));
  console.log(JSON.stringify({ task, molecules: smiles.length, max_abs_diff: Math.max(...diffs) }));
}
