// evident-design's command line, read and checked before anything runs: a mistake is a UsageError naming the
// option or file (exit status 2), and nothing is written.
import { parseArgs } from 'node:util';
import { MAX_ORACLE_CALLS } from '../profile/oracle.js';
import { STRATEGIES, type StrategyName } from '../optimize/types.js';

export const HELP = `Usage: evident-design optimize PROFILE --budget N --out DIR [options]

Optimizes molecules for a REINVENT 4 scoring profile (TOML, or its JSON form) on this machine, within a budget of
oracle calls counted as PMO counts them (distinct molecules scored; repeats are free). ExternalProcess components
run the profile's command as REINVENT 4 does.

Options:
  --budget N        oracle calls (distinct molecules scored), 1 to ${MAX_ORACLE_CALLS}   (required)
  --out DIR         where the results go (created if missing; files of the same names are replaced)   (required)
  --seed N          0 to 4294967295: equal seeds give equal runs (default 0)
  --strategy S      ${STRATEGIES.join(' | ')} (default: default)
  --pool FILE       starting molecules, one SMILES per line (.smi; text after the SMILES is ignored)
                    (default: a 20,000-molecule subset of ZINC-250k, PMO's starting pool)
  --top N           molecules written to top.csv and top.sdf (default 100)
  --stage N         which stage's scoring of a REINVENT staged-learning file (from 0)
  --quiet           no progress on stderr
  -h, --help        this text

Writes to DIR: top.csv and top.sdf (the best molecules, best first, with their scores), calls.csv (every oracle
call in order with each component's raw and transformed value), summary.json (AUC top-1/10/100, calls used, why
the run stopped, elapsed time) and curves.svg (the top-1 and top-10 mean scores against calls).

Exit status: 0 done, 1 the run failed (e.g. an external scorer crashed), 2 bad input (nothing was written),
130 interrupted.

Example:
  npx evident-design optimize packages/compound-generation/profiles/pmo/qed.toml --budget 10000 --seed 0 --out work/qed
`;

/** A mistake in the command line or its files: one line, exit status 2. */
export class UsageError extends Error {}

export interface OptimizeArgs {
  profile: string;
  out: string;
  budget: number;
  seed: number;
  strategy: StrategyName;
  pool?: string;
  top: number;
  stage?: number;
  quiet: boolean;
}

export type Command = { kind: 'help' } | { kind: 'optimize'; args: OptimizeArgs };

function wholeNumber(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(text)})`);
  }
  return n;
}

export function readCommand(argv: readonly string[]): Command {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]!);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) return { kind: 'help' };
  const [command, profile, ...rest] = positionals;
  if (command !== 'optimize') throw new UsageError(`unknown command ${JSON.stringify(command)} (commands: optimize)`);
  if (!profile) throw new UsageError('optimize needs a profile file (PROFILE.toml or .json)');
  if (rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const budget = wholeNumber('budget', values.budget, 1, MAX_ORACLE_CALLS);
  if (budget === undefined) throw new UsageError('--budget is required (oracle calls, e.g. --budget 10000)');
  if (!values.out) throw new UsageError('--out is required (the folder the results go to)');
  const strategy = values.strategy ?? 'default';
  if (!(STRATEGIES as readonly string[]).includes(strategy)) {
    throw new UsageError(`--strategy must be one of ${STRATEGIES.join(', ')} (got ${JSON.stringify(strategy)})`);
  }
  return {
    kind: 'optimize',
    args: {
      profile,
      out: values.out,
      budget,
      seed: wholeNumber('seed', values.seed, 0, 0xffffffff) ?? 0,
      strategy: strategy as StrategyName,
      pool: values.pool,
      top: wholeNumber('top', values.top, 1, 100_000) ?? 100,
      stage: wholeNumber('stage', values.stage, 0, 1000),
      quiet: values.quiet ?? false,
    },
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      budget: { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string' },
      strategy: { type: 'string' },
      pool: { type: 'string' },
      top: { type: 'string' },
      stage: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
