// Structural embeddings on small bases (issue 36, points 1 and 2): a base of 134 entities in 11 components and 200
// facts, the shape on which the SVD used to return values that were not singular values at all (23.9 where the
// largest was 4.7) and similarEntities answered a cosine of about 1 for every neighbour. Checked against a dense
// eigen-decomposition computed here (cyclic Jacobi): the singular values, and the cosines themselves, which are
// unique when the dimensions kept end at a gap of the spectrum (then U·Σ·Uᵀ sums whole eigenspaces). And the
// default dim on a base of fewer than 64 entities: reduced to entities − 1, and said so.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Random } from '@evident/graph-algorithms';
import { type ClaimInput, KbDB, KbTopologyNotComputedError } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

/** Eigenvalues and eigenvectors (columns of the returned n × n row-major matrix) by cyclic Jacobi rotations. */
function jacobi(a: Float64Array, n: number): { values: number[]; vectors: Float64Array } {
  const m = Float64Array.from(a);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  let total = 0;
  for (const x of m) total += x * x;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += m[p * n + q]! ** 2;
    if (off <= 1e-30 * total) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = m[p * n + q]!;
        if (apq === 0) continue;
        const theta = (m[q * n + q]! - m[p * n + p]!) / (2 * apq);
        const tan = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(tan * tan + 1);
        const s = tan * c;
        for (const x of [m, v]) {
          for (let k = 0; k < n; k++) {
            const kp = x[k * n + p]!;
            const kq = x[k * n + q]!;
            x[k * n + p] = c * kp - s * kq;
            x[k * n + q] = s * kp + c * kq;
          }
        }
        for (let k = 0; k < n; k++) {
          const pk = m[p * n + k]!;
          const qk = m[q * n + k]!;
          m[p * n + k] = c * pk - s * qk;
          m[q * n + k] = s * pk + c * qk;
        }
      }
    }
  }
  return { values: Array.from({ length: n }, (_, i) => m[i * n + i]!), vectors: v };
}

/**
 * 11 components over 134 entities, 200 facts: random trees with extra edges, two components each present twice
 * (every value of theirs repeated, σ1 among them), and the two smallest left as trees (bipartite: ±λ).
 */
function smallBase(): { ids: string[]; edges: [number, number][]; component: number[] } {
  const rng = new Random(36);
  const sizes = [20, 20, 18, 16, 12, 12, 10, 8, 8, 6, 4];
  const extras = [16, 16, 8, 8, 5, 5, 6, 5, 8, 0, 0];
  const twinOf = new Map([
    [1, 0],
    [5, 4],
  ]);
  const ids: string[] = [];
  const component: number[] = [];
  const edges: [number, number][] = [];
  const locals: [number, number][][] = [];
  let offset = 0;
  for (const [c, size] of sizes.entries()) {
    for (let i = 0; i < size; i++) {
      ids.push(`c${c}n${i}`);
      component.push(c);
    }
    let local: [number, number][] = [];
    const twin = twinOf.get(c);
    if (twin !== undefined) {
      local = locals[twin]!;
    } else {
      const seen = new Set<number>();
      // Hubs, as extracted facts have them (a drug and its targets): each entity hangs off one of the first three.
      for (let i = 1; i < size; i++) {
        const j = rng.nextUint32() % Math.min(i, 3);
        local.push([j, i]);
        seen.add(j * size + i);
      }
      for (let e = 0; e < extras[c]!; ) {
        const x = rng.nextUint32() % size;
        const y = rng.nextUint32() % size;
        const key = Math.min(x, y) * size + Math.max(x, y);
        if (x === y || seen.has(key)) continue;
        seen.add(key);
        local.push([Math.min(x, y), Math.max(x, y)]);
        e++;
      }
    }
    locals.push(local);
    for (const [x, y] of local) edges.push([offset + x, offset + y]);
    offset += size;
  }
  return { ids, edges, component };
}

describe('structural embeddings on a base of 134 entities in 11 components (issue 36)', () => {
  const tmp = tempKb();
  let db: KbDB;
  const base = smallBase();
  const n = base.ids.length;
  const dense = new Float64Array(n * n);
  for (const [x, y] of base.edges) {
    dense[x * n + y]! += 1;
    dense[y * n + x]! += 1;
  }
  const eig = jacobi(dense, n);
  const order = eig.values.map((_, i) => i).sort((x, y) => Math.abs(eig.values[y]!) - Math.abs(eig.values[x]!));
  const sigma = order.map((i) => Math.abs(eig.values[i]!));
  const rowSums = Array.from({ length: n }, (_, i) => dense.subarray(i * n, i * n + n).reduce((s, x) => s + x, 0));

  before(async () => {
    db = await KbDB.open(tmp.path);
    const claims: ClaimInput[] = base.edges.map(([x, y]) =>
      claim(base.ids[x]!, 'gene', 'interacts_with', base.ids[y]!, 'gene', `src-${x}-${y}`),
    );
    await db.ingestBatch(claims);
  });
  after(async () => {
    await db.close();
    tmp.cleanup();
  });

  it('the base is the shape of the issue: 134 entities, 11 components, 200 facts, σ1 repeated', () => {
    assert.equal(n, 134);
    assert.equal(base.edges.length, 200);
    assert.equal(new Set(base.component).size, 11);
    assert.ok(Math.abs(sigma[0]! - sigma[1]!) < 1e-9, `σ1 = ${sigma[0]}, σ2 = ${sigma[1]}`);
  });

  it('the default 64 dimensions: every singular value equal to the dense one, none above the largest row sum', async () => {
    const emb = await db.generateStructuralEmbeddings({ seed: 0 });
    assert.equal(emb.entity_count, 134);
    assert.equal(emb.dim, 64);
    assert.deepEqual(emb.warnings, []);
    assert.equal(emb.converged, true);
    const maxRowSum = Math.max(...rowSums);
    for (let i = 0; i < 64; i++) {
      const got = emb.singular_values[i]!;
      assert.ok(got <= maxRowSum, `σ${i + 1} = ${got} above the largest row sum ${maxRowSum}`);
      assert.ok(Math.abs(got - sigma[i]!) <= 1e-6 * sigma[0]!, `σ${i + 1} = ${got}, dense ${sigma[i]}`);
    }
    // The symptom: before, every neighbour had a cosine of about 0.99999.
    const similar = await db.similarEntities('gene:c0n0', { k: 10 });
    assert.equal(similar.length, 10);
    assert.ok(
      similar.some((s) => s.similarity < 0.99),
      JSON.stringify(similar.map((s) => s.similarity)),
    );
  });

  it('similarEntities gives the cosines of the dense U·Σ·Uᵀ when the dimensions end at a gap of the spectrum', async () => {
    // Keep every value at or above the smallest component's largest one: then each entity's row is non-zero
    // (a connected component's first eigenvector has no zero entry) and the kept set is whole eigenspaces.
    const perron = new Map<number, number>();
    for (const i of order) {
      const u = (r: number) => eig.vectors[r * n + i]!;
      let mass = 0;
      let where = -1;
      for (let r = 0; r < n; r++) if (u(r) ** 2 > mass) [mass, where] = [u(r) ** 2, r];
      const c = base.component[where]!;
      if (!perron.has(c)) perron.set(c, Math.abs(eig.values[i]!));
    }
    const floor = Math.min(...perron.values());
    const dim = sigma.filter((s) => s >= floor - 1e-9).length;
    assert.ok(dim >= 11 && dim <= 64 && sigma[dim - 1]! - sigma[dim]! > 1e-6, `dim ${dim}`);
    const emb = await db.generateStructuralEmbeddings({ dim, seed: 5 });
    assert.equal(emb.dim, dim);

    // G = Σ over the kept pairs of |λ|·u·uᵀ, and the cosine of rows x and y is G_xy / √(G_xx·G_yy).
    const kept = order.slice(0, dim);
    const gram = (x: number, y: number) =>
      kept.reduce((s, i) => s + Math.abs(eig.values[i]!) * eig.vectors[x * n + i]! * eig.vectors[y * n + i]!, 0);
    const index = new Map(base.ids.map((id, i) => [`gene:${id}`, i]));
    for (const probe of [0, 30, 60, 70, 90, 130]) {
      const exact = base.ids
        .map((_, y) =>
          y === probe ? Number.NEGATIVE_INFINITY : gram(probe, y) / Math.sqrt(gram(probe, probe) * gram(y, y)),
        )
        .sort((a, b) => b - a);
      const similar = await db.similarEntities(`gene:${base.ids[probe]}`, { k: 8 });
      for (const [rank, s] of similar.entries()) {
        const y = index.get(s.entity.id)!;
        const cosine = gram(probe, y) / Math.sqrt(gram(probe, probe) * gram(y, y));
        assert.ok(
          Math.abs(s.similarity - cosine) < 1e-6,
          `${base.ids[probe]} ~ ${s.entity.id}: ${s.similarity}, dense ${cosine}`,
        );
        assert.ok(
          Math.abs(s.similarity - exact[rank]!) < 1e-6,
          `rank ${rank + 1}: ${s.similarity}, dense ${exact[rank]}`,
        );
      }
      // Entities of other components have cosine 0; some neighbours are far from 1.
      assert.ok(similar.some((s) => s.similarity < 0.99));
    }
  });
});

describe('the default dim on a base of fewer than 64 entities (issue 36, point 2)', () => {
  const tmp = tempKb();
  let db: KbDB;
  before(async () => {
    db = await KbDB.open(tmp.path);
    // A 5-clique and a 6-path: 11 entities.
    const claims: ClaimInput[] = [];
    for (let i = 0; i < 5; i++)
      for (let j = i + 1; j < 5; j++) claims.push(claim(`k${i}`, 'gene', 'binds', `k${j}`, 'gene', 'k'));
    for (let i = 0; i < 5; i++) claims.push(claim(`p${i}`, 'gene', 'binds', `p${i + 1}`, 'gene', 'p'));
    await db.ingestBatch(claims);
  });
  after(async () => {
    await db.close();
    tmp.cleanup();
  });

  it('computes entities − 1 dimensions and says so, for the default and for a dim asked for by name', async () => {
    for (const options of [{}, { dim: 64 }, { dim: 11 }]) {
      const emb = await db.generateStructuralEmbeddings(options);
      assert.equal(emb.entity_count, 11);
      assert.equal(emb.dim, 10);
      assert.equal(emb.requested_dim, (options as { dim?: number }).dim ?? 64);
      assert.equal(emb.warnings.length, 1);
      assert.equal(emb.warnings[0]!.code, 'dim_reduced');
      assert.equal(emb.warnings[0]!.field, 'dim');
      assert.match(emb.warnings[0]!.message, /reduced to 10: the graph has 11 entities/);
      // K5: 4, then −1 four times; P6: 2cos(jπ/7), in ± pairs.
      const expected = [4, 1.801937735804838, 1.801937735804838, 1.246979603717467, 1.246979603717467, 1, 1, 1, 1];
      for (const [i, e] of expected.entries()) assert.ok(Math.abs(emb.singular_values[i]! - e) < 1e-9, `σ${i + 1}`);
      assert.equal((await db.entityEmbedding('gene:k0')).vector.length, 10);
      assert.equal((await db.similarEntities('gene:k0', { k: 4 })).length, 4);
    }
    const weighted = await db.generateWeightedStructuralEmbeddings();
    assert.equal(weighted.dim, 10);
    assert.equal(weighted.warnings[0]!.code, 'dim_reduced');
  });

  it('embeddings kept beside a base by the SVD before the fix are not served again', async () => {
    await db.generateStructuralEmbeddings({ dim: 4 });
    await db.close();
    const file = `${tmp.path}.embeddings-structural.json`;
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(kept.result.dim, 4);
    // What the code before the fix wrote: no requested_dim, no warnings.
    delete kept.result.requested_dim;
    delete kept.result.warnings;
    writeFileSync(file, JSON.stringify(kept));
    db = await KbDB.open(tmp.path);
    await assert.rejects(db.similarEntities('gene:k0'), KbTopologyNotComputedError);
    await db.generateStructuralEmbeddings({ dim: 4 });
    await db.close();
    db = await KbDB.open(tmp.path);
    assert.equal((await db.entityEmbedding('gene:k0')).vector.length, 4);
  });

  it('a dim that fits is kept, with no warning', async () => {
    const emb = await db.generateStructuralEmbeddings({ dim: 3 });
    assert.equal(emb.dim, 3);
    assert.equal(emb.requested_dim, 3);
    assert.deepEqual(emb.warnings, []);
  });
});
