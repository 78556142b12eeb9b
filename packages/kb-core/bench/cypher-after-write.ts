// Dev timing (issue 40): what the first Cypher query after a small ingest costs over the same query asked again,
// i.e. the per-snapshot structures rebuilt after a write. Per held-out shape: ingest `KB_BENCH_WRITE` claims
// (default 100; existing and new entities), wait for the base to settle, time the query, time it again.
// KB_BENCH_CLAIMS (default 50,000), KB_BENCH_SEED (default 64159624), KB_BENCH_ROUNDS (median of, default 3).
// Prints per-shape first / again ms (EVIDENT_CYPHER_GROW=0: structures made afresh after every write).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type ClaimInput, open } from '../src/index.js';
import { heldOut, render, usesId } from './cypher-shapes.js';
import { claimBatches, queryNames, seededRandom } from './workload.js';

const N = Number(process.env.KB_BENCH_CLAIMS ?? 50_000);
const WRITE = Number(process.env.KB_BENCH_WRITE ?? 100);
const SEED = Number(process.env.KB_BENCH_SEED ?? 64159624);
const ROUNDS = Number(process.env.KB_BENCH_ROUNDS ?? 3);
const TYPES = ['gene', 'protein', 'disease', 'drug', 'pathway'];

const dir = mkdtempSync(join(tmpdir(), 'kb-cypher-after-write-'));
try {
  const db = await open(join(dir, 'bench.kb'));
  for (const b of claimBatches(N, 10_000)) await db.ingestBatch(b);
  await db.embeddingsReady();
  const ids: string[] = [];
  for (const name of queryNames(N, 5)) {
    const id = await db.resolve(name);
    if (id) ids.push(id);
  }
  const rand = seededRandom(7);
  const entities = N / 10;
  let fresh = 0;
  const write = (): ClaimInput[] =>
    Array.from({ length: WRITE }, (_, k) => {
      // One claim in ten names an entity the base has not seen: entities are appended too.
      const s = k % 10 === 0 ? entities + fresh++ : Math.floor(rand() * entities);
      const o = Math.floor(rand() * entities);
      const p = Math.floor(rand() * 50);
      return {
        subject: [`E${s}`, TYPES[s % 5]!],
        predicate: [`rel_${p}`, `class_${p % 8}`],
        object: [`E${o}`, TYPES[o % 5]!],
        provenance: { source_type: 'literature', source_id: `w:${fresh}:${k}` },
        confidence: 0.6,
      };
    });
  const limits = { timeout_ms: 60_000, max_rows: 1_000_000 };
  let firstSum = 0;
  let againSum = 0;
  // KB_BENCH_STRUCTURES=1: queries that read little but the kept structures (label counts and rows, a name
  // order, a fact pass and its confidence column), so first − again is their rebuild or extension.
  const structures = [
    'MATCH (n:Gene) RETURN count(*)',
    "MATCH (n:Gene) WHERE n.name STARTS WITH 'E1' RETURN count(*)",
    'MATCH (n:Protein) RETURN n.name AS k, count(*) AS c ORDER BY c DESC LIMIT 3',
    'MATCH ()-[r]->() RETURN avg(r.confidence)',
    'MATCH ()-[r:REL_3]->() RETURN sum(r.source_count)',
  ].map((q, i) => ({ name: `structures_${i}`, q, params: {} }));
  const shapes = process.env.KB_BENCH_STRUCTURES
    ? structures
    : heldOut(SEED, 20).map((s) => ({
        name: s.name,
        q: render(s.spec, false),
        params: usesId(s.spec) ? { id: ids[0]! } : {},
      }));
  for (const { name, q, params } of shapes) {
    const s = { name };
    const ask = async () => {
      const t0 = performance.now();
      try {
        await db.rawQuery(q, params, limits);
      } catch {
        return Number.NaN;
      }
      return performance.now() - t0;
    };
    await ask();
    // A shape over a second warm is left out: its own run time, not the rebuild, would be measured.
    if (!((await ask()) < 1000)) {
      console.log(`${s.name.padEnd(14)} left out (over 1 s warm, or failing)`);
      continue;
    }
    const firsts: number[] = [];
    const agains: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await db.ingestBatch(write());
      await db.embeddingsReady();
      firsts.push(await ask());
      agains.push(await ask());
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[ROUNDS >> 1]!;
    const [f, a] = [med(firsts), med(agains)];
    if (Number.isNaN(f)) continue;
    firstSum += f;
    againSum += a;
    console.log(`${s.name.padEnd(14)} first ${f.toFixed(1).padStart(8)} ms  again ${a.toFixed(1).padStart(8)} ms`);
  }
  console.log(`sum of medians: first after write ${firstSum.toFixed(1)} ms, again ${againSum.toFixed(1)} ms`);
  await db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
