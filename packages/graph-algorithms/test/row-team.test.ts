// The SVD's row team: worker threads really start (from the TypeScript sources through tsx, and from the built
// package) and take blocks, and every operation gives the same bits as on the calling thread alone.
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
  const g = randomGraph(60_000, 200_000, new Random(9));
  const m = 12;
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

describe('the SVD row team', () => {
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
