// Profiling aid: the index's apply alone (GraphState.applyRun), on the benchmark's feed captured into runs of
// 10,000 claims as an ingest captures them, into a fresh graph each round. No store, no writer thread, no
// derived background work: the per-claim cost of the entity, source and fact tables and the claim columns.
//   N=100000 ROUNDS=7 node --conditions=evident-source --import tsx bench/profile-apply.ts
// Prints µs per claim of CPU (min and median over the rounds); `--cpu-prof` profiles the same loop.
import { GraphState } from '../src/graph/state.js';
import { Registry } from '../src/model/registry.js';
import type { ClaimRun } from '../src/model/claim-run.js';
import { ClaimCapture } from '../src/write/capture.js';
import { claimBatches } from './workload.js';

const N = Number(process.env.N ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);

function runs(): ClaimRun[] {
  // A capture per batch (no recycling), so every run has its own fresh strings, as an ingest's batches do.
  const out: ClaimRun[] = [];
  for (const b of claimBatches(N, 10_000)) out.push(new ClaimCapture('heuristic').capture(b, true));
  return out;
}

const gc = (globalThis as { gc?: () => void }).gc;
// Each round's runs are made just before it, then collected (with --expose-gc), so that the feed's garbage is not
// collected inside a timed apply and many rounds fit in memory.
const perClaim: number[] = [];
const sysPerClaim: number[] = [];
let kept = 0;
// The rounds' window on the monotonic clock (the runs' making included), for a profile's samples (--cpu-prof's times are
// on it too).
const windowStartUs = Number(process.hrtime.bigint() / 1000n);
for (let round = 0; round < ROUNDS; round++) {
  const rs = runs();
  gc?.();
  const g = new GraphState(new Registry());
  const c0 = process.cpuUsage();
  let ts = 1;
  kept = 0;
  for (const r of rs) kept += g.applyRun(r, ts++, null, new Int32Array(r.n), true);
  const c = process.cpuUsage(c0);
  perClaim.push((c.user + c.system) / N);
  sysPerClaim.push(c.system / N);
}
const sorted = [...perClaim].sort((a, b) => a - b);
console.log(
  JSON.stringify({
    claims: N,
    kept,
    apply_us_per_claim_min: Math.round(sorted[0]! * 1000) / 1000,
    apply_us_per_claim_median: Math.round(sorted[sorted.length >> 1]! * 1000) / 1000,
    sys_us_per_claim_median: Math.round([...sysPerClaim].sort((a, b) => a - b)[sysPerClaim.length >> 1]! * 1000) / 1000,
    window_us: [windowStartUs, Number(process.hrtime.bigint() / 1000n)],
    rounds: perClaim.map((x) => Math.round(x * 1000) / 1000),
  }),
);
