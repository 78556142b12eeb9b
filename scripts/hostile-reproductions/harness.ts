// The reproductions' harness: where the bins are, which findings run (REPRO_ONLY), and a timed request with a
// prober beside it, recorded as a row.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Exchange,
  type HostileRequest,
  type ServerProcess,
  sendWithin,
  shapeProblem,
  startProber,
} from '@evident/testkit';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const only = (process.env.REPRO_ONLY ?? '').split(',').filter(Boolean).map(Number);
export const wanted = (finding: number) => !only.length || only.includes(finding);
export const log = (l: string) => process.stderr.write(`${l}\n`);

export interface Row {
  finding: number;
  what: string;
  answer: string;
  ms: number;
  budget_ms: number | null;
  others: string;
  ok: boolean;
  note?: string;
}
export const rows: Row[] = [];

const codeOf = (x: Exchange) => {
  try {
    return (JSON.parse(x.answer.text) as { error?: { code?: string } }).error?.code ?? '';
  } catch {
    return '';
  }
};

/**
 * Sends `req` while the server's small request is sent every 50 ms, and records a row. `expect`: the statuses that
 * are right (a success must parse as JSON); `budgetMs`: the answer must come within it.
 */
export async function timed(
  server: ServerProcess,
  small: HostileRequest,
  finding: number,
  what: string,
  req: HostileRequest,
  expect: (status: number) => boolean,
  budgetMs: number,
): Promise<Exchange> {
  const prober = startProber(server.url, small, 50, 60_000);
  const x = await sendWithin(server.url, req, Math.max(budgetMs * 3, 60_000));
  const probes = await prober.stop();
  const shape = shapeProblem({ ...x, req: { ...req, mayPass: true } });
  const answered = probes.probes - probes.unanswered;
  const ok =
    !x.timedOut &&
    expect(x.answer.status) &&
    !shape &&
    x.answer.ms <= budgetMs &&
    probes.unanswered === 0 &&
    probes.slowest_ms < 1000 &&
    server.alive();
  rows.push({
    finding,
    what,
    answer: x.timedOut ? 'no answer' : `${x.answer.status} ${codeOf(x)}`.trim(),
    ms: Math.round(x.answer.ms),
    budget_ms: budgetMs,
    others: `${answered}/${probes.probes} answered, slowest ${probes.slowest_ms} ms`,
    ok,
    ...(shape ? { note: shape } : {}),
    ...(server.alive() ? {} : { note: 'the server died' }),
  });
  log(`${finding} ${what}: ${rows.at(-1)!.answer} in ${rows.at(-1)!.ms} ms (${rows.at(-1)!.others})`);
  return x;
}

export const is4xx = (s: number) => s >= 400 && s < 500;
export const isOkOr4xx = (s: number) => s === 200 || is4xx(s);

export const postJson = (path: string, body: unknown): HostileRequest => ({
  why: path,
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
  mayPass: true,
});
