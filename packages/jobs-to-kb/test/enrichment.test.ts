// A discovery job run with options.enrichment: its significant gene sets become `enriched_in` claims on the case
// condition, one per set, with the method, its statistics and the job as provenance (issue 42, point 3).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { open, type KbDB } from '@evident/kb';
import { tempDir } from '@evident/testkit';
import { exportToKb } from '../src/index.js';
import { discoveryRequest, startJobService, type JobService } from './helpers.js';

let jobs: JobService;
let db: KbDB;
let dir: ReturnType<typeof tempDir>;

// Planted genes of the example study (packages/target-discovery/examples/planted_genes.csv) and genes it left alone.
const gmt = [
  'PLANTED_UP\tgenes planted up\tEGFR\tMET\tPDGFRB\tADORA2A\tAR\tKCNH2\tCTSK',
  'PLANTED_DOWN\tgenes planted down\tERBB2\tKDR\tDRD2\tESR1\tSCN9A\tMMP9\tPTPN11',
].join('\n');

before(async () => {
  jobs = await startJobService();
  dir = tempDir('jobs-to-kb-enrich-');
  db = await open(join(dir.path, 'lab.kb'));
});
after(async () => {
  await db.close();
  dir.cleanup();
  await jobs.close();
});

test('enriched sets become enriched_in claims with their method, statistics and the job', async () => {
  const request = discoveryRequest();
  request.options = {
    ...(request.options as object),
    enrichment: { methods: ['camera', 'fry'], gene_sets: Buffer.from(gmt).toString('base64'), min_size: 5 },
  };
  const done = await jobs.run('/v1/targets/discover', request);
  const results = (await jobs.client.getResults(done.job_id)) as any;
  const significant = new Set(
    results.enrichment.rows.filter((r: any) => r.fdr < 0.05).map((r: any) => r.set_id as string),
  );
  assert.ok(significant.has('PLANTED_UP') && significant.has('PLANTED_DOWN'), JSON.stringify(results.enrichment.rows));

  const r = await exportToKb(jobs.client, done.job_id, db, { top: 3 });
  assert.ok(r.registered_predicates.includes('enriched_in'));
  const claims = await db.claimsFor('condition:tumor');
  const enriched = claims.filter((c) => c.predicate[0] === 'enriched_in');
  assert.equal(enriched.length, significant.size, 'one claim per significant set (top applies to targets only)');
  assert.equal(claims.length - enriched.length, 3);
  for (const c of enriched) {
    assert.equal(c.subject[1], 'pathway');
    const p = c.payload as any;
    const rows = results.enrichment.rows.filter((x: any) => x.set_id === p.set_id);
    const best = rows.filter((x: any) => x.fdr < 0.05).sort((a: any, b: any) => a.p_value - b.p_value)[0];
    assert.equal(c.subject[0], p.set_id);
    assert.equal(p.method, best.method);
    assert.equal(p.p_value, best.p_value);
    assert.equal(p.fdr, best.fdr);
    assert.equal(c.provenance.method, best.method);
    assert.equal(c.provenance.source_type, 'gene_set_enrichment');
    assert.equal(c.provenance.source_id, r.source_id);
    assert.deepEqual(Object.keys(p.methods).sort(), rows.map((x: any) => x.method).sort());
    assert.equal(p.methods.fry.p_value_mixed, rows.find((x: any) => x.method === 'fry').p_value_mixed);
    assert.ok(c.confidence >= 0.5 && c.confidence <= 0.99);
  }
  assert.equal((enriched.find((c) => c.subject[0] === 'PLANTED_DOWN')!.payload as any).direction, 'down');

  const again = await exportToKb(jobs.client, done.job_id, db, { top: 3 });
  assert.equal(again.ingested, 0);
  assert.deepEqual(again.registered_predicates, []);
});
