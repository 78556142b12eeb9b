#!/usr/bin/env node
// evident-export JOB_ID --kb PATH_OR_POSTGRES_URL: a finished job's findings into an Evident KB.
// A bin of its own rather than a subcommand of evident-jobs: the job service must not depend on the KB, and a
// subcommand loading this package would be an import from the service back up to its bridge.
import { EvidentError } from '@evident/contract';
import { createClient, EvidentApiError } from '@evident/job-service';
import { open } from '@evident/kb';
import { Command, InvalidArgumentError, Option } from 'commander';
import { exportToKb } from '../export.js';
import { ExportError } from '../errors.js';
import { checkKbTarget } from './kb-target.js';
import { CONDITION_TYPES, type ExportOptions, resolveOptions } from '../options.js';

/** fetch's TypeError says only 'fetch failed'; the reason (ECONNREFUSED, ENOTFOUND, …) is its cause. */
const causeOf = (e: Error): string => {
  const c = e.cause as { code?: string; message?: string } | undefined;
  return c?.code ?? c?.message ?? e.message;
};

const number = (name: string) => (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number`);
  return n;
};

const program = new Command('evident-export')
  .description("export a completed job's findings (target discovery or compound design) as claims into an Evident KB")
  .argument('<job_id>', 'the job, e.g. td_…')
  .requiredOption('--kb <path>', 'the KB: an SQLite file (created if absent) or a postgres:// URL')
  .option(
    '--min-priority <x>',
    'discovery jobs: only targets with priority_score >= x (0..100)',
    number('--min-priority'),
  )
  .option('--top <n>', 'only the first n findings by rank', number('--top'))
  .option('--condition <name>', "discovery jobs: the condition's name in the KB (default: the job's case value)")
  .addOption(
    new Option('--condition-type <type>', "discovery jobs: the condition's entity type (default condition)").choices(
      CONDITION_TYPES,
    ),
  )
  .option('--url <url>', 'job service base URL (default: $EVIDENT_URL or http://127.0.0.1:8000)')
  .option('--api-key <key>', 'API key of the job (default: $EVIDENT_API_KEY)')
  .action(async (jobId: string, o) => {
    const options: ExportOptions = {
      min_priority: o.minPriority,
      top: o.top,
      condition: o.condition,
      condition_type: o.conditionType,
    };
    resolveOptions(options);
    // Before the job service is asked anything: a --kb that is not a KB location is the user's to fix first.
    await checkKbTarget(o.kb);
    const apiKey = o.apiKey ?? process.env.EVIDENT_API_KEY;
    if (!apiKey) throw new ExportError('invalid_usage', 'no API key: pass --api-key or set EVIDENT_API_KEY');
    const baseUrl = o.url ?? process.env.EVIDENT_URL ?? 'http://127.0.0.1:8000';
    const client = createClient({ baseUrl, apiKey });
    // The job first: an unknown job, a wrong key or an unreachable service must not leave a new, empty base behind.
    try {
      await client.getJob(jobId);
    } catch (e) {
      if (e instanceof TypeError)
        throw new ExportError('job_service_unavailable', `cannot reach the job service at ${baseUrl}: ${causeOf(e)}`, {
          cause: e,
        });
      throw e;
    }
    await using db = await open(o.kb);
    const { claim_ids: _ids, ...result } = await exportToKb(client, jobId, db, options);
    console.log(JSON.stringify(result));
  });

program.parseAsync().catch((e: unknown) => {
  if (e instanceof EvidentApiError) {
    console.error(`evident-export: job API error ${e.status} ${e.code}${e.details?.length ? '' : `: ${e.message}`}`);
    for (const d of e.details ?? []) console.error(`  ${d.path || '/'}: ${d.message}`);
  } else if (e instanceof EvidentError) {
    console.error(`evident-export: ${e.code}${e.problems?.length ? '' : `: ${e.message}`}`);
    for (const p of e.problems ?? []) console.error(`  ${p.path || '/'}: ${p.message}`);
  } else console.error(`evident-export: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
