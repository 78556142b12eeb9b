// A job kind for tests of the thread pool's defences: its prepare, run or CSV can spin forever, or trap RDKit's
// real WebAssembly module (a 1,000-atom chain: `RuntimeError: memory access out of bounds`), as a hostile
// input did before the SMILES bounds. Not a production kind: loaded through config.kindModules.
import { Type, type Static } from '@sinclair/typebox';
import { loadRDKit } from '@evident/compound-generation';
import type { JobKind } from '../src/kinds/job-kind.js';

export const HostileRequest = Type.Object(
  {
    mode: Type.Union([Type.Literal('ok'), Type.Literal('spin'), Type.Literal('trap')]),
    at: Type.Optional(Type.Union([Type.Literal('prepare'), Type.Literal('run'), Type.Literal('csv')])),
  },
  { additionalProperties: false },
);
export type HostileRequest = Static<typeof HostileRequest>;
type HostileInput = Required<HostileRequest>;
interface HostileResult {
  mode: HostileInput['mode'];
  at: HostileInput['at'];
}

function spin(): never {
  // No await, no check of any signal: only terminating the thread stops this.
  for (;;) {}
}

async function trapRDKit(): Promise<void> {
  const rd = await loadRDKit();
  rd.get_mol('C'.repeat(1000))?.delete();
}

async function act(input: HostileInput, at: HostileInput['at']): Promise<void> {
  if (input.at !== at) return;
  if (input.mode === 'spin') spin();
  if (input.mode === 'trap') await trapRDKit();
}

export const hostileKind: JobKind<HostileRequest, HostileInput, HostileResult> = {
  id: 'hostile',
  route: '/v1/hostile/run',
  requestSchema: HostileRequest,
  async prepare(req) {
    const input: HostileInput = { mode: req.mode, at: req.at ?? 'prepare' };
    await act(input, 'prepare');
    return input;
  },
  estimateSeconds() {
    return [0.1, 1];
  },
  async run(input) {
    await act(input, 'run');
    return { mode: input.mode, at: input.at };
  },
  toCsv(result) {
    if (result.at === 'csv' && result.mode === 'spin') spin();
    return `mode,at\n${result.mode},${result.at}\n`;
  },
};

export default hostileKind;
