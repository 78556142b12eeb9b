// The load generator of bench:hostile, in its own process (hostile.bench.ts forks it): it builds the cases'
// bodies (95 MB of escapes, 7.9M keys, the fuzz's 2,150 requests) and sends them, while the bench's process only
// probes. In one process, the generator's own work (building bodies, writing 95 MB to a socket, reading 2,150
// answers) delayed the prober's reads, and that delay counted as the server's stall; now the slowest probe is the
// server's (and the machine's) figure.
//
// Protocol (process.send): the child sends `ready` with the case names; the parent sends `run` (case index, the
// server's URL); the child may ask `settle` (the parent waits its settle time and reads the server's memory, so
// the bench's goals see it) and is answered `settled`; it ends a case with `done` (its exchanges, bodies
// dropped) or `failed`.
import type { CaseContext, Exchange, HostileRequest } from '@evident/testkit';
import { envNumber, sendWithin } from '@evident/testkit';
import { jobApiCases } from './hostile-cases.js';

export type ToChild = { type: 'run'; index: number; url: string } | { type: 'settled' };
export type FromChild =
  | { type: 'ready'; names: string[] }
  | { type: 'settle' }
  | { type: 'done'; exchanges: Exchange[]; extra?: Record<string, unknown> }
  | { type: 'failed'; message: string };

/** An exchange as the bench's summary reads it: the request without its body (tens of MB), raw text cut short. */
function slim(x: Exchange): Exchange {
  const { body: _body, raw, ...req } = x.req;
  const kept: HostileRequest = { ...req, path: req.path.slice(0, 200) };
  if (raw !== undefined) kept.raw = String(raw).slice(0, 200);
  return { ...x, req: kept };
}

const send = (m: FromChild) => process.send!(m);
let onSettled: (() => void) | undefined;

async function main() {
  const key = process.env.HOSTILE_KEY ?? '';
  const only = (process.env.HOSTILE_CASES ?? '')
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  const timeoutMs = envNumber('HOSTILE_TIMEOUT_MS', 150_000);
  const cases = jobApiCases({
    scale: envNumber('HOSTILE_SCALE', 1),
    key,
    seed: envNumber('HOSTILE_FUZZ_SEED', 2026),
    jobTimeoutMs: envNumber('HOSTILE_JOB_TIMEOUT_S', 900) * 1000,
  }).filter((c) => !only.length || only.some((w) => c.name.toLowerCase().includes(w)));

  process.on('message', (m: ToChild) => {
    if (m.type === 'settled') {
      onSettled?.();
      return;
    }
    const url = m.url;
    const one = (req: HostileRequest) => sendWithin(url, req, timeoutMs);
    // The case's view of the server: the process itself stays with the parent (cases here only send and settle).
    const context = {
      url,
      send: one,
      async sendAll(reqs: readonly HostileRequest[], concurrency = reqs.length) {
        const out: Exchange[] = [];
        const step = Math.max(1, concurrency);
        for (let i = 0; i < reqs.length; i += step) out.push(...(await Promise.all(reqs.slice(i, i + step).map(one))));
        return out;
      },
      settle() {
        return new Promise<undefined>((resolve) => {
          onSettled = () => resolve(undefined);
          send({ type: 'settle' });
        });
      },
    } as unknown as CaseContext;
    cases[m.index]!.run(context).then(
      (r) => send({ type: 'done', exchanges: r.exchanges.map(slim), extra: r.extra }),
      (e: Error) => send({ type: 'failed', message: e.message }),
    );
  });
  send({ type: 'ready', names: cases.map((c) => c.name) });
}

await main();
