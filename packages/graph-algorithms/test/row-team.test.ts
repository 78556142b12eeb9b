// The SVD's row team: worker threads really start (from the TypeScript sources through tsx, and from the built
// package) and take blocks, and every operation gives the same bits as on the calling thread alone; the SIMD
// kernels (column-kernels.wat) and the plain loops (column-kernels.ts) agree with a direct computation.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type CsrGraph, csrFromEdges, Random } from '@evident/graph-algorithms';
import { RowOp } from '../src/svd/row-ops.js';
import * as sourceTeam from '../src/svd/row-team.js';

type TeamModule = typeof sourceTeam;
const builtPath = fileURLToPath(new URL('../dist/src/svd/row-team.js', import.meta.url));

function randomGraph(n: number, edges: number, rng: Random): CsrGraph {
  const s = new Int32Array(edges);
  const t = new Int32Array(edges);
  for (let e = 0; e < edges; e++) {
    s[e] = Math.floor(rng.next() * n);
    t[e] = Math.floor(rng.next() * n);
  }
  return csrFromEdges(n, s, t);
}

/** Runs the four operations on a team and returns every output. */
function exercise(team: sourceTeam.RowTeam, m: number, width: number, seed: number): Float64Array[] {
  const { v, s, n } = team.buffers;
  const rng = new Random(seed);
  for (let i = 0; i < v.length; i++) v[i] = rng.normal();
  for (let i = 0; i < m * width; i++) s[i] = rng.normal();
  team.run(RowOp.Spmv, 2);
  const spmv = team.buffers.w.slice();
  const coef = team.project(m).slice();
  team.run(RowOp.Subtract, m);
  const subtracted = team.buffers.w.slice();
  team.run(RowOp.Combine, m, width);
  return [spmv, coef, subtracted, team.buffers.y.slice(0, n * width)];
}

async function checkTeam(module: TeamModule): Promise<void> {
  // An odd row count (the kernels take rows in pairs) and column counts that are not multiples of four.
  const g = randomGraph(60_001, 200_000, new Random(9));
  const m = 13;
  const width = 5;
  const alone = new module.RowTeam(g, m, width, 1);
  const team = new module.RowTeam(g, m, width, 3);
  try {
    // Workers start in the background (under tsx that takes a few hundred milliseconds); keep working until
    // they have taken a share, up to a generous limit for a loaded machine.
    const deadline = Date.now() + 60_000;
    let round = 0;
    do {
      const expected = exercise(alone, m, width, round);
      const got = exercise(team, m, width, round);
      for (const [i, x] of expected.entries()) assert.deepEqual(got[i], x, `operation ${i}, round ${round}`);
      round++;
      if (team.callerBlocks < team.blocksRun) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    } while (Date.now() < deadline);
    assert.ok(team.callerBlocks < team.blocksRun, 'no worker took a block');
  } finally {
    team.close();
    alone.close();
  }
}

/** The four operations computed directly from their definitions, for comparison. */
function direct(team: sourceTeam.RowTeam, m: number, width: number, seed: number): Float64Array[] {
  const { n, offsets, targets, weights } = team.buffers;
  const rng = new Random(seed);
  const v = new Float64Array(team.buffers.v.length);
  const s = new Float64Array(m * width);
  for (let i = 0; i < v.length; i++) v[i] = rng.normal();
  for (let i = 0; i < m * width; i++) s[i] = rng.normal();
  const w = new Float64Array(n);
  for (let r = 0; r < n; r++)
    for (let p = offsets[r]!; p < offsets[r + 1]!; p++) w[r]! += weights[p]! * v[2 * n + targets[p]!]!;
  const spmv = w.slice();
  const coef = new Float64Array(m);
  for (let i = 0; i < m; i++) for (let r = 0; r < n; r++) coef[i]! += v[i * n + r]! * w[r]!;
  for (let r = 0; r < n; r++) for (let i = 0; i < m; i++) w[r]! -= coef[i]! * v[i * n + r]!;
  const y = new Float64Array(n * width);
  for (let j = 0; j < width; j++)
    for (let r = 0; r < n; r++) for (let i = 0; i < m; i++) y[j * n + r]! += v[i * n + r]! * s[i * width + j]!;
  return [spmv, coef, w, y];
}

describe('the SVD row team', () => {
  for (const kernels of ['wasm', 'plain'] as const) {
    it(`${kernels} kernels: the sparse product, projection, subtraction and combination agree with a direct computation`, () => {
      for (const [n, m, width] of [
        [9_001, 13, 5],
        [4_096 * 3, 8, 2],
        [7, 3, 1],
        [1, 3, 2],
      ] as const) {
        const team = new sourceTeam.RowTeam(randomGraph(n, 4 * n, new Random(n)), m, width, 1, kernels);
        try {
          assert.equal(team.buffers.wasm !== undefined, kernels === 'wasm');
          const got = exercise(team, m, width, 5);
          const expected = direct(team, m, width, 5);
          for (const [i, x] of expected.entries()) {
            const scale = x.reduce((a, e) => Math.max(a, Math.abs(e)), 0) || 1;
            for (let e = 0; e < x.length; e++) {
              assert.ok(Math.abs(got[i]![e]! - x[e]!) <= 1e-12 * scale, `n ${n}: operation ${i}, entry ${e}`);
            }
          }
        } finally {
          team.close();
        }
      }
    });
  }

  it('workers started from the TypeScript sources take blocks, with the same results as one thread', async () => {
    await checkTeam(sourceTeam);
  });

  it('workers started from the built package take blocks, with the same results as one thread', async (t) => {
    if (!existsSync(builtPath)) {
      if (process.env.CI === 'true') assert.fail(`${builtPath} is missing: the package was not built`);
      t.skip('the package is not built (npm ci builds it)');
      return;
    }
    await checkTeam((await import(builtPath)) as TeamModule);
  });
});
