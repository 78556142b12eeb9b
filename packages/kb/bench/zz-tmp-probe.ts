import { performance } from 'node:perf_hooks';
import { createTempDatabase } from '@evident/testkit';
import { openPostgresStore } from '../src/store/postgres/index.js';
import type { LogEntry } from '../src/store/types.js';
const t = await createTempDatabase('zzprobe');
try {
  const s = await openPostgresStore(t.url);
  const mk = (i: number): LogEntry => ({ kind: 'claim', claim_id: 'clm_' + i.toString(16).padStart(32, '0'), subject: [`E${i % 10000}`, 'gene'], predicate: ['rel_3', 'class_3'], object: [`E${(i * 7) % 10000}`, 'disease'], provenance: { source_type: 'literature', source_id: `pmid:${i % 50000}` }, confidence: 0.73 });
  let head = 0;
  let t0 = performance.now();
  let js = 0;
  for (let b = 0; b < 10; b++) {
    const e = Array.from({ length: 10000 }, (_, k) => mk(b * 10000 + k));
    const a = performance.now(); JSON.stringify(e); js += performance.now() - a;
    await s.append(e, Date.now(), head); head += 10000;
  }
  console.log('append 100k ms', performance.now() - t0, 'stringify ms', js);
  t0 = performance.now();
  let last = 0, n = 0;
  for (;;) { const p = await s.readAfter(last, 65536); if (!p.length) break; n += p.length; last = p[p.length - 1]!.seq; }
  console.log('read 100k ms', performance.now() - t0, n);
  t0 = performance.now();
  for (let i = 0; i < 1000; i++) await s.readAfter(head, 65536);
  console.log('1000 tail reads at head ms', performance.now() - t0);
  await s.close();
} finally { await t.drop(); }
