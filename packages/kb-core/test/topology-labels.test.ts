// The topics' leading entities are chosen in one pass (topByInside) instead of a sort of every topic: the same
// entities in the same order as a stable sort by weight inside the topic, ties included, on random weights drawn
// from few values (so most are tied).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Random } from '@evident/graph-algorithms';
import { topByInside } from '../src/topology/labels.js';

it('topByInside picks what a stable sort by weight puts first', () => {
  const rng = new Random(20261129);
  for (let round = 0; round < 500; round++) {
    const n = 1 + rng.int(60);
    const inside = Float64Array.from({ length: 80 }, () => rng.int(1 + rng.int(6)));
    const nodes = [...new Set(Array.from({ length: n }, () => rng.int(80)))].sort((a, b) => a - b);
    const k = 1 + rng.int(7);
    const expected = [...nodes].sort((x, y) => inside[y]! - inside[x]!).slice(0, k);
    assert.deepEqual(topByInside(nodes, inside, k), expected, `round ${round}`);
  }
});
