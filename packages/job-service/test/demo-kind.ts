// A small job kind for tests: CPU-bound, deterministic result, controllable duration and failure mode. It keeps
// the service testable end to end without the scientific engines. Not a production kind: servers, workers and
// their threads load it from this module (config.kindModules / EVIDENT_JOB_KIND_MODULES).
import { Type, type Static } from '@sinclair/typebox';
import { InvalidParametersError } from '@evident/contract';
import type { JobKind } from '../src/kinds/job-kind.js';

export const DemoRequest = Type.Object(
  {
    items: Type.Integer({ minimum: 1, maximum: 100_000, description: 'Number of result rows to compute' }),
    cpu_ms: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 600_000, description: 'CPU time to burn in total (busy loop), ms' }),
    ),
    fail: Type.Optional(
      Type.Union(
        [Type.Literal('never'), Type.Literal('always'), Type.Literal('first_attempt'), Type.Literal('input')],
        {
          description: "'always': every attempt throws; 'first_attempt': only the first; 'input': rejected at run time",
        },
      ),
    ),
    label: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type DemoRequest = Static<typeof DemoRequest>;

export interface DemoInput {
  items: number;
  cpu_ms: number;
  fail: 'never' | 'always' | 'first_attempt' | 'input';
  label: string;
}

export interface DemoResult {
  label: string;
  rows: Array<{ index: number; value: number }>;
  checksum: number;
}

/** Deterministic value of row i (a 32-bit integer hash scaled to [0, 1)). */
export function demoValue(i: number): number {
  let h = Math.imul(i + 1, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return (h >>> 0) / 2 ** 32;
}

export const demoKind: JobKind<DemoRequest, DemoInput, DemoResult> = {
  id: 'demo',
  route: '/v1/demo/run',
  requestSchema: DemoRequest,
  prepare(req) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point of this check
    if (req.label !== undefined && /[\u0000-\u001f]/.test(req.label)) {
      throw new InvalidParametersError([{ path: '/label', message: 'must not contain control characters' }]);
    }
    return { items: req.items, cpu_ms: req.cpu_ms ?? 0, fail: req.fail ?? 'never', label: req.label ?? '' };
  },
  estimateSeconds(input) {
    const s = input.cpu_ms / 1000 + input.items / 1e6;
    return [s * 0.9, s * 1.5 + 1];
  },
  async run(input, ctx) {
    const attempt = ctx.attempt ?? 1;
    if (input.fail === 'input') throw new InvalidParametersError([{ path: '/fail', message: 'rejected as asked' }]);
    const steps = 20;
    const rows: DemoResult['rows'] = [];
    for (let s = 0; s < steps; s++) {
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted');
      burn(input.cpu_ms / steps);
      for (let i = Math.floor((s * input.items) / steps); i < Math.floor(((s + 1) * input.items) / steps); i++) {
        rows.push({ index: i, value: demoValue(i) });
      }
      ctx.progress('computing', Math.round(((s + 1) * 100) / steps));
      if (s === steps / 2 && (input.fail === 'always' || (input.fail === 'first_attempt' && attempt === 1))) {
        throw new Error(`demo failure on attempt ${attempt}`);
      }
      // Yield so that an abort message from the service can be delivered.
      await new Promise((r) => setImmediate(r));
    }
    const checksum = rows.reduce((a, r) => a + r.value, 0);
    return { label: input.label, rows, checksum };
  },
  toCsv(result) {
    return `index,value\n${result.rows.map((r) => `${r.index},${r.value}`).join('\n')}\n`;
  },
  targetsOf(result) {
    return [...result.rows]
      .sort((a, b) => b.value - a.value)
      .slice(0, 3)
      .map((r, rank) => ({ symbol: `DEMO${r.index}`, score: r.value, rank: rank + 1 }));
  },
};

function burn(ms: number): void {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x = (x * 1103515245 + 12345) % 2147483648;
  if (x === -1) console.log(x); // keeps the loop from being optimised away
}

export default demoKind;
