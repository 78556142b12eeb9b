import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, type ClaimInput } from '../src/index.js';
import { tempKb } from './helpers.js';

// The batch path decides per claim whether the provenance is only { source_type, source_id }; extra fields
// must stay with exactly the claims that carried them, in the live index and after the log is replayed.
test('ingestBatch keeps extra provenance fields on the claims that carry them, and only those, across reopen', async () => {
  const t = tempKb();
  try {
    const inputs: ClaimInput[] = [];
    for (let i = 0; i < 12; i++) {
      const provenance: ClaimInput['provenance'] = { source_type: 'literature', source_id: `pmid:${i}` };
      if (i % 3 === 1) provenance.note = `n${i}`;
      if (i % 3 === 2) provenance.extra_undefined = undefined;
      inputs.push({
        subject: [`G${i}`, 'gene'],
        predicate: ['associated_with', 'association'],
        object: ['NSCLC', 'disease'],
        provenance,
      });
    }
    const expected = (i: number) =>
      i % 3 === 1
        ? { source_type: 'literature', source_id: `pmid:${i}`, note: `n${i}` }
        : { source_type: 'literature', source_id: `pmid:${i}` };
    let ids: string[];
    {
      await using db = await open(t.path);
      const r = await db.ingestBatch(inputs);
      assert.equal(r.ingested, 12);
      ids = r.claim_ids;
      for (let i = 0; i < 12; i++) {
        const c = (await db.getClaim(ids[i]!))!;
        const prov = Object.fromEntries(Object.entries(c.provenance).filter(([, v]) => v !== undefined));
        assert.deepEqual(prov, expected(i), `claim ${i}`);
      }
    }
    await using db = await open(t.path);
    for (let i = 0; i < 12; i++)
      assert.deepEqual((await db.getClaim(ids[i]!))!.provenance, expected(i), `claim ${i} after reopen`);
  } finally {
    t.cleanup();
  }
});
