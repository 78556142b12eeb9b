// `evident-design optimize`: load and check everything (profile, pool, output folder) before the run, so that
// bad input writes nothing; run optimize() with progress on stderr; write the results.
import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { optimize } from '../optimize/optimize.js';
import { InvalidProfileError } from '../profile/errors.js';
import { parseScoringProfile } from '../profile/load.js';
import type { ScoringProfile } from '../profile/profile.js';
import { type OptimizeArgs, UsageError } from './args.js';
import { summarize, writeOutputs } from './outputs.js';
import { ProgressReporter } from './progress.js';

function readText(file: string, what: string): string {
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : (e as Error).message;
    throw new UsageError(`${what} ${file}: ${why}`);
  }
  return (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
}

/** A .smi file: the first field of each line is the SMILES; blank lines and # comments are skipped. */
export function readPool(file: string): string[] {
  const pool = readText(file, '--pool')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(/\s+/)[0]!);
  if (pool.length === 0) throw new UsageError(`--pool ${file}: no SMILES in the file`);
  return pool;
}

async function loadProfile(args: OptimizeArgs): Promise<ScoringProfile> {
  const text = readText(args.profile, 'profile');
  const format = /\.json$/i.test(args.profile) ? 'json' : /\.toml$/i.test(args.profile) ? 'toml' : undefined;
  try {
    return await parseScoringProfile(text, {
      source: args.profile,
      format,
      stage: args.stage,
      // REINVENT 4 reads a separate component file from the working directory, as the command's files are.
      readFile: (name) => readFileSync(resolve(name), 'utf8'),
    });
  } catch (e) {
    if (e instanceof InvalidProfileError) {
      const first = e.problems[0];
      const more = e.problems.length > 1 ? ` (and ${e.problems.length - 1} more problem(s))` : '';
      const where = first?.path ? `${first.path}: ` : '';
      throw new UsageError(`profile ${args.profile}: ${where}${first?.message ?? e.message}${more}`);
    }
    throw e;
  }
}

function checkOut(dir: string): void {
  try {
    if (!statSync(dir).isDirectory()) throw new UsageError(`--out ${dir}: exists and is not a folder`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    // missing: made when the results are written
  }
}

export async function runOptimize(args: OptimizeArgs, stderr: NodeJS.WriteStream, signal: AbortSignal): Promise<void> {
  const t0 = performance.now();
  checkOut(args.out);
  const pool = args.pool === undefined ? undefined : readPool(args.pool);
  const profile = await loadProfile(args);
  const progress = new ProgressReporter(stderr, !args.quiet);
  try {
    const result = await optimize({
      profile,
      budget: { max_oracle_calls: args.budget },
      seed: args.seed,
      strategy: args.strategy,
      initial_pool: pool,
      top_n: args.top,
      signal,
      onProgress: (p) => progress.update(p),
    });
    progress.finish();
    const summary = summarize(result, basename(args.profile), performance.now() - t0);
    await writeOutputs(args.out, result, summary);
    if (!args.quiet) {
      stderr.write(
        `done: ${result.calls_used} calls (${result.stop_reason}), top-1 ${result.top1.toFixed(3)}, ` +
          `top-10 mean ${result.top10_mean.toFixed(3)}, AUC top-10 ${result.auc_top10.toFixed(3)}; ` +
          `results in ${args.out}\n`,
      );
    }
  } finally {
    progress.finish();
    profile.dispose();
  }
}
