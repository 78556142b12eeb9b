import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createTempDatabase } from '@evident/testkit';
const t = await createTempDatabase('zzprobe');
const c = new pg.Client({ connectionString: t.url }); await c.connect();
try {
  const mk = (i: number) => ({ kind: 'claim', claim_id: 'clm_' + i.toString(16).padStart(32, '0'), subject: [`E${i % 10000}`, 'gene'], predicate: ['rel_3', 'class_3'], object: [`E${(i * 7) % 10000}`, 'disease'], provenance: { source_type: 'literature', source_id: `pmid:${i % 50000}` }, confidence: 0.73 });
  const batches = Array.from({ length: 10 }, (_, b) => Array.from({ length: 10000 }, (_, k) => mk(b * 10000 + k)));
  for (const [name, ddl, chunk] of [
    ['lz4', 'body text COMPRESSION lz4', 4096], ['pglz', 'body text', 4096], ['external', 'body text', 4096], ['lz4-256', 'body text COMPRESSION lz4', 256], ['lz4-16k', 'body text COMPRESSION lz4', 16384],
  ] as const) {
    await c.query(`DROP TABLE IF EXISTS l; CREATE TABLE l (seq bigint primary key, n int, ts bigint, ${ddl})`);
    if (name === 'external') await c.query('ALTER TABLE l ALTER COLUMN body SET STORAGE EXTERNAL');
    let seq = 1; const t0 = performance.now();
    for (const e of batches) {
      const vals: unknown[] = []; const tup: string[] = [];
      for (let i = 0; i < e.length; i += chunk) { const p = vals.length; tup.push(`($${p+1}::bigint,$${p+2}::int,$${p+3}::bigint,$${p+4}::text)`); const part = e.slice(i, i + chunk); vals.push(seq, part.length, 1, JSON.stringify(part)); seq += part.length; }
      await c.query('BEGIN'); await c.query(`INSERT INTO l VALUES ${tup.join(',')}`, vals); await c.query('COMMIT');
    }
    const ins = performance.now() - t0;
    const t1 = performance.now(); const r = await c.query('SELECT body FROM l ORDER BY seq'); const sel = performance.now() - t1;
    const t2 = performance.now(); for (const row of r.rows) JSON.parse(row.body); const parse = performance.now() - t2;
    console.log(name, 'insert', Math.round(ins), 'select', Math.round(sel), 'parse', Math.round(parse));
  }
} finally { await c.end(); await t.drop(); }
