// estimated_time and estimated_seconds are one estimate: the seconds are rounded first and the text is made from
// them. Property checks over many cost-model inputs (both production kinds' models, with queue waits), then the
// same agreement on the answers of a running server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GenerationInput } from '@evident/compound-generation';
import { rng } from '@evident/testkit';
import { estimateFields, formatEstimate, wholeSeconds, withWait } from '../src/estimate.js';
import { estimateCgSeconds } from '../src/kinds/cg/cost.js';
import { estimateTdSeconds } from '../src/kinds/td/cost.js';
import { http, startTestServer } from './helpers.js';

const UNIT: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600 };

/** Every promise the two fields make together; a message naming the broken one, or undefined. */
function disagreement(fields: { estimated_time: string; estimated_seconds: [number, number] }): string | undefined {
  const m = /^(\d+)-(\d+) (seconds|minutes|hours)$/.exec(fields.estimated_time);
  if (!m) return 'estimated_time is not in the seed form';
  const [a, b, u] = [Number(m[1]), Number(m[2]), UNIT[m[3]!]!];
  const [lo, hi] = fields.estimated_seconds;
  if (!Number.isInteger(lo) || !Number.isInteger(hi)) return 'estimated_seconds are not whole';
  if (!(lo >= 1 && hi > lo)) return 'estimated_seconds are not two increasing numbers from 1';
  if (!(a >= 1 && b > a)) return 'the text is not two increasing numbers from 1';
  if (u === 1 && (a !== lo || b !== hi)) return 'in seconds the text and the numbers differ';
  // The text's range holds the seconds, and is the tightest range of whole units that does.
  if (a * u > lo || b * u < hi) return 'the text does not contain the seconds';
  if (a !== Math.floor(lo / u) || b !== Math.max(a + 1, Math.ceil(hi / u))) return 'the text is not the tightest';
  // The largest unit the numbers allow (the high end reaches it twice, the low end once).
  const larger = [3600, 60].find((v) => v > u && hi >= 2 * v && lo >= v);
  if (larger !== undefined) return `a larger unit (${larger} s) fits`;
  if (u > 1 && !(hi >= 2 * u && lo >= u)) return 'the unit is larger than the numbers allow';
  return undefined;
}

function check(raw: [number, number], where: string) {
  const fields = estimateFields(raw);
  const problem = disagreement(fields);
  assert.equal(problem, undefined, `${where}: ${JSON.stringify(raw)} -> ${JSON.stringify(fields)}`);
  // The seconds are the raw estimate, rounded outwards (the low end at least 1).
  const [lo, hi] = fields.estimated_seconds;
  const [rlo, rhi] = [Math.min(...raw), Math.max(...raw)];
  assert.equal(lo, Math.max(1, Math.floor(rlo)), where);
  assert.ok(hi >= rhi && hi === Math.max(lo + 1, Math.ceil(rhi)), where);
  assert.equal(formatEstimate(raw), fields.estimated_time);
}

test('the cases of the issue and the seed: one range, in two forms', () => {
  assert.deepEqual(estimateFields([0, 3]), { estimated_time: '1-3 seconds', estimated_seconds: [1, 3] });
  assert.deepEqual(estimateFields([0.2, 0.9]), { estimated_time: '1-2 seconds', estimated_seconds: [1, 2] });
  assert.deepEqual(estimateFields([2 * 3600, 4 * 3600]), {
    estimated_time: '2-4 hours',
    estimated_seconds: [7200, 14400],
  });
  assert.deepEqual(estimateFields([300, 900]), { estimated_time: '5-15 minutes', estimated_seconds: [300, 900] });
  // A low end under a minute is not rounded up to "1 minute": the range stays in seconds.
  assert.deepEqual(estimateFields([20, 300]), { estimated_time: '20-300 seconds', estimated_seconds: [20, 300] });
  assert.deepEqual(estimateFields([1.5 * 3600, 3.2 * 3600]), {
    estimated_time: '1-4 hours',
    estimated_seconds: [5400, 11520],
  });
  assert.deepEqual(wholeSeconds([30, 10]), [10, 30], 'a reversed range is put in order');
});

test('property: the two fields agree for random ranges of every size', () => {
  const r = rng(36_08);
  for (let i = 0; i < 20_000; i++) {
    // Log-uniform over 1 ms .. 10 days, plus exact whole numbers and unit edges now and then.
    const pick = () => {
      const x = 10 ** (r() * 9 - 3);
      const edge = [1, 59, 60, 61, 119, 120, 121, 3599, 3600, 7199, 7200, 7201][Math.floor(r() * 12)]!;
      return r() < 0.15 ? edge : r() < 0.2 ? Math.round(x) : x;
    };
    check([pick(), pick()], `random #${i}`);
  }
});

test('property: the two fields agree over the cost models of both kinds, alone and behind a queue', () => {
  const r = rng(8);
  const dataTypes = ['counts', 'log_expression', 'non_log_expression'] as const;
  const methods = [undefined, 'limma', 'voom', 'limma-trend', 'deseq2', 'edger-ql'] as const;
  for (let i = 0; i < 5_000; i++) {
    const wait: [number, number] = r() < 0.5 ? [0, 0] : [r() * 3000, r() * 9000];
    const ordered: [number, number] = [Math.min(...wait), Math.max(...wait)];
    const td = estimateTdSeconds({
      features: 1 + Math.floor(r() ** 2 * 60_000),
      samples: 2 + Math.floor(r() * 400),
      data_type: dataTypes[Math.floor(r() * 3)]!,
      method: methods[Math.floor(r() * methods.length)] as never,
    });
    check(td, `td #${i}`);
    check(withWait(td, ordered), `td #${i} queued`);
    const docking = r() < 0.6;
    const cg = estimateCgSeconds({
      num_molecules: 1 + Math.floor(r() * 1000),
      options: {
        population_size: 10 + Math.floor(r() * 990),
        max_evaluations: 100 + Math.floor(r() ** 3 * 999_900),
        docking,
        docking_budget: 1 + Math.floor(r() ** 2 * 20_000),
        docking_exhaustiveness: 1 + Math.floor(r() * 32),
      },
    } as unknown as GenerationInput);
    check(cg, `cg #${i}`);
    check(withWait(cg, ordered), `cg #${i} queued`);
  }
});

test('accepted answers and status documents carry agreeing fields', async () => {
  const s = await startTestServer({ workerThreads: 1 });
  try {
    const { key } = await s.store.createKey({ name: 'estimates', plan: 'enterprise', rpm: 10_000, concurrency: 100 });
    // The demo kind estimates [0.9 x cpu, 1.5 x cpu + 1] s: 0 ms is [0, 1], the kind of range.
    const ids: string[] = [];
    for (const cpu_ms of [0, 400, 1500, 70_000, 200_000]) {
      const a = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 1, cpu_ms } });
      assert.equal(a.status, 202, a.text);
      assert.equal(disagreement(a.body), undefined, `accepted ${cpu_ms} ms: ${a.text}`);
      ids.push(a.body.job_id);
    }
    for (const id of ids) {
      const st = await http(s.url, 'GET', `/v1/jobs/${id}`, { key });
      assert.equal(disagreement(st.body), undefined, `status: ${st.text}`);
    }
    const list = await http(s.url, 'GET', '/v1/jobs', { key });
    for (const j of list.body.jobs) assert.equal(disagreement(j), undefined, `listed: ${JSON.stringify(j)}`);
    for (const id of ids) await http(s.url, 'DELETE', `/v1/jobs/${id}`, { key });
  } finally {
    await s.cleanup();
  }
});
