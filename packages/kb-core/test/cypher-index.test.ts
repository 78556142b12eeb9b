import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const operators = (p: { operator: string; children: unknown[] }): string[] => [
  p.operator,
  ...(p.children as (typeof p)[]).flatMap(operators),
];

test('rawQuery: ranges, prefixes and equalities on id and name are index seeks, with the results of a scan', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const genes = ['ALK', 'BRAF', 'EGFR', 'ERBB2', 'KRAS', 'MET', 'NRAS', 'RET', 'ROS1', 'TP53'];
    await db.ingestBatch(genes.map((g, i) => claim(g, 'gene', 'associated_with', `d${i % 3}`, 'disease', `s${i}`)));
    const queries = [
      "MATCH (g:Gene) WHERE g.name >= 'E' AND g.name < 'N' RETURN g.name AS n ORDER BY n",
      "MATCH (g:Gene) WHERE 'M' < g.name RETURN g.name AS n ORDER BY n",
      "MATCH (g) WHERE g.name > 'KRAS' AND g.name <= 'RET' RETURN g.name AS n ORDER BY n",
      "MATCH (g:Gene) WHERE g.name = 'MET' RETURN g.name AS n",
      'MATCH (g:Gene) WHERE g.name < 5 RETURN g.name AS n',
      "MATCH (g:Gene) WHERE g.name STARTS WITH 'E' RETURN g.name AS n ORDER BY n",
      "MATCH (g:Gene)-[]->(d) WHERE g.name STARTS WITH 'R' RETURN g.name AS n ORDER BY n",
    ];
    const expected = [
      [['EGFR'], ['ERBB2'], ['KRAS'], ['MET']],
      [['MET'], ['NRAS'], ['RET'], ['ROS1'], ['TP53']],
      [['MET'], ['NRAS'], ['RET']],
      [['MET']],
      [],
      [['EGFR'], ['ERBB2']],
      [['RET'], ['ROS1']],
    ];
    for (const [i, q] of queries.entries()) {
      const r = await db.rawQuery(q, {}, { mode: 'profile' });
      assert.deepEqual(r.rows, expected[i], q);
      const ops = operators(r.plan as never);
      // Or, under a hop, a chain over slots that reads the label's range from its name column (chain-columns.ts).
      const chain = ops.includes('ChainProjection') && /g\.name >= 'R'/.test(JSON.stringify(r.plan));
      assert.ok(ops.some((o) => o.startsWith('NodeIndex')) || chain, `${q}: ${ops.join(' ')}`);
    }
    // Entities added after the index was built are found too (the unsorted tail).
    await db.ingestBatch([claim('MAP2K1', 'gene', 'associated_with', 'd0', 'disease', 'later')]);
    const later = await db.rawQuery(
      "MATCH (g:Gene) WHERE g.name >= 'M' AND g.name < 'N' RETURN g.name AS n ORDER BY n",
    );
    assert.deepEqual(later.rows, [['MAP2K1'], ['MET']]);
  } finally {
    t.cleanup();
  }
});
