// The crossover's JavaScript graph (src/optimize/mol-graph.ts): a molecule written whole reads back as the same
// molecule (tetrahedral and E/Z stereo kept); two pieces joined by their ring-closure label are the molecule
// cut; E/Z survives where a double bond keeps a neighbour at each end and is dropped where it does not; Jensen's
// ring crossover keeps to his ring rules; and the kNN surrogate's inverted index gives the full scan's neighbours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRDKit, parseSmiles } from '../src/rdkit.js';
import { MolGraph } from '../src/optimize/mol-graph.js';
import { fingerprintOf, KnnSurrogate } from '../src/optimize/surrogate.js';
import { tanimoto } from '../src/chem/fingerprint.js';
import { GraphOperators } from '../src/optimize/graph-operators.js';
import { Random } from '../src/generation/prng.js';
import { reverseDirections } from '../src/optimize/bond-directions.js';

const molecules = [
  'COc1cc2ncnc(Nc3cccc(Cl)c3F)c2cc1OC',
  'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1',
  'C[C@H](N)C(=O)O',
  'N[C@@H](Cc1c[nH]c2ccccc12)C(=O)O',
  'C[N+](C)(C)CC(=O)[O-]',
  'O=[N+]([O-])c1ccc(S(=O)(=O)N2CCOCC2)cc1',
  '[2H]C([2H])([2H])Oc1ccccc1',
  'C[C@H]1CC[C@@H](C(C)C)[C@@H](O)C1',
  'CS(=O)c1ccc(P(=O)(O)O)cc1',
  'c1ccc2c(c1)[nH]c1ccccc12',
  // E/Z: conjugated (one single bond between two stereo double bonds), tetrasubstituted, an oxime, a 10-ring.
  'C/C=C/C=C\\c1ccccc1',
  'OC(=O)/C=C\\C(=O)O',
  'F/C=C(\\Cl)Br',
  'C/C(F)=C(/Cl)C/C=N/O',
  'C1CCC/C=C/CCCC1',
  'CC(C)/C=C/[C@H](N)C(=O)O',
];

const canonical = (rd: Awaited<ReturnType<typeof loadRDKit>>, s: string) => {
  const m = parseSmiles(rd, s);
  assert.ok(m, s);
  try {
    return m.get_smiles();
  } finally {
    m.delete();
  }
};

const graphOf = (rd: Awaited<ReturnType<typeof loadRDKit>>, s: string) => {
  const m = parseSmiles(rd, s)!;
  try {
    return MolGraph.fromMol(m)!;
  } finally {
    m.delete();
  }
};

test('a molecule written whole from its graph reads back as the same molecule, stereo included', async () => {
  const rd = await loadRDKit();
  for (const s of molecules) {
    const written = graphOf(rd, s).pieceSmiles(0, new Set(), []);
    assert.equal(canonical(rd, written), canonical(rd, s), `${s} -> ${written}`);
  }
});

test('the two pieces of every acyclic single bond, joined by their label, are the molecule again', async () => {
  const rd = await loadRDKit();
  let cuts = 0;
  for (const s of molecules) {
    const g = graphOf(rd, s);
    g.bonds.forEach((b, i) => {
      if (b.order !== 1 || !g.isAcyclic(i)) return;
      cuts++;
      const removed = new Set([i]);
      const x = g.pieceSmiles(b.a, removed, [{ atom: b.a, order: 1, label: 90, replaces: i }]);
      const y = g.pieceSmiles(b.b, removed, [{ atom: b.b, order: 1, label: 90, replaces: i }]);
      assert.equal(canonical(rd, `${x}.${y}`), canonical(rd, s), `${s}: ${x} + ${y}`);
      const heavy = g.heavyAtoms(g.component(b.a, removed)) + g.heavyAtoms(g.component(b.b, removed));
      assert.equal(heavy, g.heavyAtoms(g.atoms.map((_, j) => j)));
    });
  }
  assert.ok(cuts >= 30, `${cuts} cuts`);
  // Ring bonds are not bridges: benzene has none to cut.
  const benzene = graphOf(rd, 'c1ccccc1');
  assert.ok(benzene.bonds.every((_, i) => !benzene.isAcyclic(i)));
});

test('the kNN surrogate (inverted index) finds the neighbours a full Tanimoto scan finds', async () => {
  const rd = await loadRDKit();
  const fps = molecules.map((s) => fingerprintOf(rd, s)!);
  const knn = new KnnSurrogate(3, 3);
  const ys = fps.map((_, i) => i / 10);
  for (const [i, f] of fps.slice(0, 8).entries()) knn.add(f, ys[i]!);
  for (const q of fps) {
    const sims = fps.slice(0, 8).map((f, i) => ({ s: tanimoto(q, f), y: ys[i]!, i }));
    sims.sort((a, b) => b.s - a.s || a.i - b.i);
    const top = sims.slice(0, 3);
    const w = top.map((t) => t.s ** 3 + 1e-9);
    const mean = top.reduce((a, t, j) => a + w[j]! * t.y, 0) / w.reduce((a, b) => a + b, 0);
    const p = knn.predict(q);
    assert.ok(Math.abs(p.mean - mean) < 1e-12 && Math.abs(p.nearest - top[0]!.s) < 1e-12);
  }
});

test("Jensen's ring crossover: valid children, no ring above 6 atoms, rings the non-ring crossover cannot make", async () => {
  const rd = await loadRDKit();
  const ringSizes = (smiles: string): number[] => {
    const m = parseSmiles(rd, smiles)!;
    try {
      const j = JSON.parse(m.get_json());
      const rings: number[][] = j.molecules[0].extensions?.find((e: any) => e.atomRings)?.atomRings ?? [];
      return rings.map((r) => r.length);
    } finally {
      m.delete();
    }
  };
  // A non-ring crossover child's rings are whole rings of its two parents: its ring sizes are a sub-multiset.
  const fromParents = (child: number[], a: number[], b: number[]) => {
    const left = [...a, ...b];
    return child.every((n) => {
      const k = left.indexOf(n);
      if (k < 0) return false;
      left.splice(k, 1);
      return true;
    });
  };
  const parents = molecules.filter((s) => !s.includes('@')).slice(0, 6);
  const run = (ring: boolean) => {
    const ops = new GraphOperators(rd, ring);
    const rng = new Random(4);
    let children = 0;
    let newRings = 0;
    try {
      for (let i = 0; i < 60; i++) {
        const a = rng.pick(parents);
        const b = rng.pick(parents);
        const c = ops.crossover(a, b, rng);
        if (!c) continue;
        children++;
        assert.equal(canonical(rd, c), c);
        const sizes = ringSizes(c);
        assert.ok(
          sizes.every((n) => n <= 6),
          `${c}: rings ${sizes}`,
        );
        if (!fromParents(sizes, ringSizes(a), ringSizes(b))) newRings++;
      }
    } finally {
      ops.dispose();
    }
    return { children, newRings };
  };
  const plain = run(false);
  const withRings = run(true);
  assert.ok(plain.children >= 40 && withRings.children >= 40, JSON.stringify({ plain, withRings }));
  assert.equal(plain.newRings, 0);
  // Cutting 6-rings into pieces and closing them again mostly makes 6-rings: new ring sizes are few, but exist.
  assert.ok(withRings.newRings >= 1, JSON.stringify(withRings));
});

/** The open-bond rule of the crossover: the second piece's directions reversed when both say the same. */
const join = (x: { smiles: string; directions: number[] }, y: { smiles: string; directions: number[] }) =>
  `${x.smiles}.${x.directions[0] !== 0 && x.directions[0] === y.directions[0] ? reverseDirections(y.smiles) : y.smiles}`;

test('E/Z: pieces of two molecules keep each double bond as its parent had it, through a conjugated join', async () => {
  const rd = await loadRDKit();
  // Both cut at the single bond between their two double bonds: each piece's double bond ends at the open bond.
  const piece = (s: string, side: 'a' | 'b') => {
    const g = graphOf(rd, s);
    const between = (x: number) => g.adjacency[x]!.some((k) => g.bonds[k]!.order === 2);
    const i = g.bonds.findIndex((b, k) => b.order === 1 && g.isAcyclic(k) && between(b.a) && between(b.b));
    const atom = g.bonds[i]![side];
    return g.writePiece(atom, new Set([i]), [{ atom, order: 1, label: 90, replaces: i }]);
  };
  const e = 'F/C=C/C=C/Cl'; // E, E
  const z = 'Br/C=C\\C=C\\I'; // Z, E
  const eA = piece(e, 'a');
  const eB = piece(e, 'b');
  const zA = piece(z, 'a');
  const zB = piece(z, 'b');
  // Which piece holds which halogen is read from the SMILES written.
  const [eF, eCl] = eA.smiles.includes('F') ? [eA, eB] : [eB, eA];
  const [zBr, zI] = zA.smiles.includes('Br') ? [zA, zB] : [zB, zA];
  assert.equal(canonical(rd, join(eF, zI)), canonical(rd, 'F/C=C/C=C/I'));
  assert.equal(canonical(rd, join(zI, eF)), canonical(rd, 'F/C=C/C=C/I'));
  assert.equal(canonical(rd, join(zBr, eCl)), canonical(rd, 'Br/C=C\\C=C\\Cl'));
  assert.equal(canonical(rd, join(eCl, zBr)), canonical(rd, 'Br/C=C\\C=C\\Cl'));
  assert.equal(canonical(rd, join(eF, eCl)), canonical(rd, e));
  assert.equal(canonical(rd, join(zBr, zI)), canonical(rd, z));
});

test('E/Z is dropped where a double bond loses the neighbours of one end, kept where another neighbour stays', async () => {
  const rd = await loadRDKit();
  // A piece written without an open bond: the cut neighbour is simply gone.
  const without = (s: string, lost: number) => {
    const g = graphOf(rd, s);
    const i = g.adjacency[lost]![0]!;
    const start = g.other(i, lost);
    return canonical(rd, g.pieceSmiles(start, new Set([i]), []));
  };
  // F/C=C(\Cl)Br: F is trans to Br. Without Cl, F and Br keep it; without F, the CH end has no neighbour left.
  assert.equal(without('F/C=C(\\Cl)Br', 3), canonical(rd, 'F/C=C/Br'));
  assert.equal(without('F/C=C(\\Cl)Br', 0), canonical(rd, 'C=C(Cl)Br'));
  assert.equal(without('C/C=C/C', 0), 'C=CC');
  // A triene whose first double bond alone has E/Z keeps exactly that.
  const triene = canonical(rd, 'C/C=C/C=CC=CC');
  assert.equal(canonical(rd, graphOf(rd, triene).pieceSmiles(0, new Set(), [])), triene);
});

test('crossover children of E/Z parents: all parse, most carry E/Z, and equal seeds give equal children', async () => {
  const rd = await loadRDKit();
  const parents = [
    'CC(C)/C=C/c1ccc(O)cc1',
    'O=C(O)/C=C/c1ccc(N)cc1',
    'C/C=C\\C(=O)N1CCN(C)CC1',
    'Clc1ccc(/C=N/NC(=O)c2ccncc2)cc1',
    'CCOC(=O)/C(C)=C/c1ccccc1',
  ];
  const run = (seed: number) => {
    const ops = new GraphOperators(rd);
    const rng = new Random(seed);
    const children: string[] = [];
    try {
      for (let i = 0; i < 80; i++) {
        const c = ops.crossover(rng.pick(parents), rng.pick(parents), rng);
        if (c) children.push(c);
      }
    } finally {
      ops.dispose();
    }
    return children;
  };
  const children = run(11);
  assert.ok(children.length >= 60, `${children.length} children`);
  for (const c of children) assert.equal(canonical(rd, c), c);
  const withEz = children.filter((c) => /[/\\]/.test(c));
  assert.ok(withEz.length >= children.length / 2, `${withEz.length} of ${children.length} with E/Z`);
  assert.deepEqual(run(11), children);
});
