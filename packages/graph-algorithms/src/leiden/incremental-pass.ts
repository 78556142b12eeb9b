// One Leiden iteration restricted to a frontier (incremental.ts runs these): local moving from the touched nodes
// (moveFrontier, move.ts), refinement of the touched nodes only (refineFrontier, refine.ts), aggregation, and the same again
// on the aggregate graph, where an aggregate node is touched when one of its members was, until a level's
// communities are its nodes. The shape of leidenPass in run.ts, with the frontier carried through the levels.
import type { Random } from '../random.js';
import { moveFrontier } from './move.js';
import { refineFrontier } from './refine.js';
import { startPass } from './run.js';
import type { LeidenScratch } from './scratch.js';
import { aggregateWorkGraph, relabel, type WorkGraph } from './work-graph.js';

/**
 * Updates `membership` (labels < base.n) in place from the nodes flagged in `touched` (base's nodes); every base
 * node whose node at some level was queued for moving is flagged in `affected`. Returns whether any node moved.
 */
// Deliberate copy: leidenPass's signature and level state, with the frontier threaded through every level.
export function frontierPass(
  base: WorkGraph,
  membership: Int32Array,
  touched: Uint8Array,
  affected: Uint8Array,
  gamma: number,
  theta: number,
  rng: Random,
  scratch: LeidenScratch,
): boolean {
  const n = base.n;
  let g = base;
  let side: 0 | 1 = 0;
  const first = startPass(membership, n, scratch, 'frontierPass');
  let partition = first.partition;
  const toAggregate = first.toAggregate;
  let levelTouched = scratch.uint8('frontierPass.touched.1', n);
  levelTouched.set(touched);
  let anyMove = false;
  for (;;) {
    if (moveFrontier(g, partition, levelTouched, gamma, rng, scratch) > 0) anyMove = true;
    for (let v = 0; v < n; v++) if (levelTouched[toAggregate[v]!] === 1) affected[v] = 1;
    const count = relabel(partition, scratch);
    if (count === g.n) break;
    let refined = refineFrontier(g, partition, count, levelTouched, gamma, theta, rng, scratch);
    // An aggregate node is touched when its sub-community grew from a touched node (its label, the first node,
    // is touched): an untouched part that touched nodes merged into sat where it was before and stays there, so
    // that the update does not spread to whole communities through a few members.
    const grewFromTouched = scratch.uint8('frontierPass.grewFromTouched', g.n);
    for (let v = 0; v < g.n; v++) grewFromTouched[v] = levelTouched[refined[v]!]!;
    let refinedCount = relabel(refined, scratch);
    if (refinedCount === g.n) {
      // Nothing merged: aggregate on the moved partition (as run.ts), a community touched when all of it is.
      refined = partition;
      refinedCount = count;
      const some = scratch.uint8('frontierPass.someUntouched', count).fill(0);
      for (let v = 0; v < g.n; v++) if (levelTouched[v] === 0) some[partition[v]!] = 1;
      for (let v = 0; v < g.n; v++) grewFromTouched[v] = some[partition[v]!] === 1 ? 0 : 1;
    }
    const next = scratch.int32(`frontierPass.partition.${side}`, refinedCount);
    const nextTouched = scratch.uint8(`frontierPass.touched.${side}`, refinedCount);
    for (let v = 0; v < g.n; v++) {
      next[refined[v]!] = partition[v]!;
      nextTouched[refined[v]!] = grewFromTouched[v]!;
    }
    g = aggregateWorkGraph(g, refined, refinedCount, scratch, side);
    side = side === 0 ? 1 : 0;
    for (let v = 0; v < n; v++) toAggregate[v] = refined[toAggregate[v]!]!;
    partition = next;
    levelTouched = nextTouched;
  }
  for (let v = 0; v < n; v++) membership[v] = partition[toAggregate[v]!]!;
  return anyMove;
}
