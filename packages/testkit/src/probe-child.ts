// The prober of a hostile-load benchmark in a process of its own (probe-process.ts): the small request sent one at
// a time, `intervalMs` apart (or at once when the last took longer), each answer written as a JSON line on stdout,
// until stdin closes; the probe in flight is then finished and written too.
import { type HostileRequest, sendWithin, sleep } from './hostile.js';

const [base, probeJson, interval, timeout] = process.argv.slice(2);
const probe = JSON.parse(probeJson!) as HostileRequest;
const intervalMs = Number(interval);
const timeoutMs = Number(timeout);
let running = true;
process.stdin.on('data', () => {});
process.stdin.on('end', () => {
  running = false;
});
while (running) {
  const t0 = performance.now();
  const x = await sendWithin(base!, probe, timeoutMs);
  process.stdout.write(`${JSON.stringify({ answer: x.answer, timedOut: x.timedOut })}\n`);
  const rest = intervalMs - (performance.now() - t0);
  if (running && rest > 0) await sleep(rest);
}
