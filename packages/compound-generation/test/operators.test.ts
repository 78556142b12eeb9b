import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRDKit, parseSmiles } from '../src/rdkit.js';
import { FragmentLibrary } from '../src/generation/library.js';
import { Operators, MUTATION_FAMILIES } from '../src/generation/operators.js';
import { Random } from '../src/generation/prng.js';

const parents = [
  'COc1cc2ncnc(Nc3cccc(Cl)c3F)c2cc1OC',
  'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1',
  'O=C(Nc1ccccc1)C1CCN(c2ccncc2)CC1',
  'CCOc1ccc(S(=O)(=O)N2CCOCC2)cc1',
];

const canonical = (rd: Awaited<ReturnType<typeof loadRDKit>>, s: string) => {
  const m = parseSmiles(rd, s);
  if (!m) return null;
  try {
    return m.get_smiles();
  } finally {
    m.delete();
  }
};

test('the fragment library parses, and random assembly gives valid molecules', async () => {
  const rd = await loadRDKit();
  const lib = FragmentLibrary.load();
  assert.ok(lib.blocks.length >= 150);
  assert.ok(lib.cores.length >= 50 && lib.substituents.length >= 80);
  for (const b of lib.blocks) assert.ok(canonical(rd, b.smiles), b.smiles);
  const rng = new Random(5);
  let valid = 0;
  for (let i = 0; i < 100; i++) {
    const s = lib.assemble(rd, rng);
    if (s && canonical(rd, s) && !s.includes('*')) valid++;
  }
  assert.ok(valid >= 90, `${valid}/100`);
});

test('every mutation family and crossover produce new valid molecules', async () => {
  const rd = await loadRDKit();
  const ops = new Operators(rd, FragmentLibrary.load());
  const rng = new Random(9);
  const parentSet = new Set(parents.map((p) => canonical(rd, p)));
  try {
    for (const family of MUTATION_FAMILIES) {
      let ok = 0;
      for (let i = 0; i < 40 && ok < 3; i++) {
        const o = ops.mutate(parents[i % parents.length]!, rng, family);
        const c = o && canonical(rd, o.smiles);
        if (c && !parentSet.has(c)) ok++;
      }
      assert.ok(ok >= 1, `${family} produced no valid new molecule`);
    }
    let crossed = 0;
    for (let i = 0; i < 20; i++) {
      const o = ops.crossover(parents[i % 4]!, parents[(i + 1) % 4]!, rng);
      const c = o && canonical(rd, o.smiles);
      if (c && !parentSet.has(c)) crossed++;
    }
    assert.ok(crossed >= 10, `crossover: ${crossed}/20`);
  } finally {
    ops.dispose();
  }
});

test('the PRNG is reproducible and roughly uniform', () => {
  const a = new Random(123);
  const b = new Random(123);
  const xs = Array.from({ length: 10000 }, () => a.next());
  assert.deepEqual(
    xs.slice(0, 50),
    Array.from({ length: 50 }, () => b.next()),
  );
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  assert.ok(Math.abs(mean - 0.5) < 0.02);
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  assert.notEqual(new Random(124).next(), new Random(123).next());
});
