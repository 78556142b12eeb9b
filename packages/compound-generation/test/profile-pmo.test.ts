// The 20 PMO objectives that need no model file, as profiles (profiles/pmo/*.toml), against GuacaMol's
// definitions computed with RDKit 2022.09 by test/reference/pmo_objectives.py (values in pmo-objectives.json):
// every endpoint's raw value and score and every total, to 1e-6 (relative for values above 1e-6, so that the
// tiny Gaussian tails of the MPOs are compared too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseScoringProfile } from '@evident/compound-generation';

const here = dirname(fileURLToPath(import.meta.url));
const PROFILES = join(here, '..', 'profiles', 'pmo');

interface Part {
  raw: number;
  score: number;
}
interface Row {
  smiles: string;
  score: number;
  parts: Record<string, Part>;
}
const reference = JSON.parse(readFileSync(join(here, 'reference', 'pmo-objectives.json'), 'utf8')) as {
  rdkit_version: string;
  objectives: Record<string, Row[]>;
};

/** Equal to 1e-6 absolute, and to 1e-6 relative when the expected value is above 1e-6 (or both below 1e-30). */
function close(got: number, want: number): boolean {
  if (Math.abs(got - want) > 1e-6) return false;
  if (Math.abs(want) < 1e-6)
    return Math.abs(want) < 1e-30 ? Math.abs(got) < 1e-30 : Math.abs(got - want) <= 1e-6 * Math.abs(want);
  return true;
}

test('the 20 PMO objectives without model files are all profiles', () => {
  const files = readdirSync(PROFILES)
    .filter((f) => f.endsWith('.toml'))
    .map((f) => f.replace(/\.toml$/, ''))
    .sort();
  assert.deepEqual(files, Object.keys(reference.objectives).sort());
  assert.equal(files.length, 20);
});

for (const [name, rows] of Object.entries(reference.objectives)) {
  test(`${name} matches GuacaMol's definition on ${rows.length} molecules`, async () => {
    const text = readFileSync(join(PROFILES, `${name}.toml`), 'utf8');
    const profile = await parseScoringProfile(text, { source: `${name}.toml` });
    try {
      const scored = await profile.score(rows.map((r) => r.smiles));
      rows.forEach((row, i) => {
        const got = scored[i]!;
        assert.ok(got.valid, `${row.smiles} should be valid`);
        for (const [part, want] of Object.entries(row.parts)) {
          const c = got.components.find((e) => e.name === part);
          assert.ok(c, `${name}: no endpoint named ${part}`);
          assert.ok(
            typeof c.raw === 'number' && close(c.raw, want.raw),
            `${name} ${row.smiles} ${part} raw ${c.raw} vs ${want.raw}`,
          );
          assert.ok(
            c.value !== null && close(c.value, want.score),
            `${name} ${row.smiles} ${part} score ${c.value} vs ${want.score}`,
          );
        }
        assert.ok(close(got.total, row.score), `${name} ${row.smiles}: total ${got.total} vs GuacaMol ${row.score}`);
      });
    } finally {
      profile.dispose();
    }
  });
}
