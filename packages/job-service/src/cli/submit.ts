// `evident-jobs submit <kind> <request.json>`: submits a job, shows a progress bar, prints the final status.
import { EvidentError } from '@evident/contract';
import type { Command } from 'commander';
import { readFileSync, writeFileSync } from 'node:fs';
import cliProgress from 'cli-progress';
import { createClient, EvidentApiError, type Client } from '../client/client.js';
import { configFromEnv } from '../config.js';
import { jobKinds, loadJobKinds } from '../kinds/registry.js';

const ALIASES: Record<string, string> = { targets: 'td', discover: 'td', compounds: 'cg', generate: 'cg' };

export function submitCommand(program: Command): void {
  program
    .command('submit')
    .description(
      `submit a job and wait for it (kinds: ${jobKinds.map((k) => k.id).join(', ')}; or a route like /v1/targets/discover)`,
    )
    .argument('<kind>', 'job kind id, alias (targets, compounds) or route')
    .argument('<request>', "JSON request file, or '-' for stdin")
    .option('--url <url>', 'service base URL (default: $EVIDENT_URL or http://127.0.0.1:8000)')
    .option('--api-key <key>', 'API key (default: $EVIDENT_API_KEY)')
    .option('--no-wait', 'print the accepted job and return')
    .option('--out <file>', 'write the results here when the job completes')
    .option('--csv', 'fetch results as CSV')
    .option('--interval <ms>', 'poll interval', Number, 1000)
    .option('--keep-running', 'on Ctrl-C leave the job running (default: cancel it)')
    .option(
      '--idempotency-key <key>',
      'sent as Idempotency-Key: running the same command again within 24 h answers the same job',
    )
    .action(async (kindArg: string, file: string, o) => {
      const apiKey = o.apiKey ?? process.env.EVIDENT_API_KEY;
      if (!apiKey) throw new EvidentError('invalid_usage', 'no API key: pass --api-key or set EVIDENT_API_KEY');
      const id = ALIASES[kindArg] ?? kindArg;
      const kinds = await loadJobKinds(configFromEnv().kindModules);
      const route = kindArg.startsWith('/') ? kindArg : kinds.find((k) => k.id === id)?.route;
      if (!route) throw new EvidentError('invalid_usage', `unknown job kind ${kindArg}`);
      const body = JSON.parse(readFileSync(file === '-' ? 0 : file, 'utf8'));
      const client = createClient({ baseUrl: o.url ?? process.env.EVIDENT_URL ?? 'http://127.0.0.1:8000', apiKey });
      try {
        const accepted = await client.submit(route, body, { idempotencyKey: o.idempotencyKey });
        const queued = accepted.queue_position ? `, ${accepted.queue_position} in the queue` : '';
        console.error(`job ${accepted.job_id} accepted; estimated ${accepted.estimated_time}${queued}`);
        if (!o.wait) {
          console.log(JSON.stringify(accepted));
          return;
        }
        const bar = new cliProgress.SingleBar(
          {
            format: '{bar} {percentage}% | {stage}',
            hideCursor: true,
            stream: process.stderr,
            noTTYOutput: true,
            notTTYSchedule: 1000,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(100, 0, { stage: 'queued' });
        // Ctrl-C while waiting: the job is cancelled (or, with --keep-running, left running), and we say which.
        // A second Ctrl-C quits at once.
        const interrupt = new AbortController();
        const onSigint = () => (interrupt.signal.aborted ? process.exit(130) : interrupt.abort());
        process.on('SIGINT', onSigint);
        let final: Awaited<ReturnType<typeof client.waitForJob>>;
        try {
          final = await client.waitForJob(accepted.job_id, {
            intervalMs: o.interval,
            signal: interrupt.signal,
            onProgress: (s) =>
              bar.update(s.status === 'completed' ? 100 : (s.progress?.percent ?? 0), {
                stage: s.progress?.stage ?? s.status,
              }),
          });
        } catch (e) {
          if (!interrupt.signal.aborted) throw e;
          bar.stop();
          await interrupted(client, accepted.job_id, o.keepRunning === true);
          return;
        } finally {
          process.off('SIGINT', onSigint);
        }
        bar.stop();
        console.log(JSON.stringify(final));
        if (final.status !== 'completed') {
          process.exitCode = 2;
          return;
        }
        const kind = kinds.find((k) => k.route === route);
        const results = await client.getResults(final.job_id);
        if (o.out) {
          const data = o.csv ? await client.getResultsCsv(final.job_id) : JSON.stringify(results);
          writeFileSync(o.out, data);
          console.error(`results written to ${o.out}`);
        }
        // The person at the terminal reads a summary; stdout keeps the status document for scripts.
        for (const line of kind?.summarize?.(results, 10) ?? []) console.error(line);
        console.error(
          `full results: evident-jobs results ${final.job_id} --out results.json (or --csv --out table.csv)`,
        );
      } catch (e) {
        if (e instanceof EvidentApiError) {
          console.error(`error ${e.status} ${e.code}: ${e.message}`);
          for (const d of e.details ?? []) console.error(`  ${d.path || '/'}: ${d.message}`);
          process.exitCode = 1;
          return;
        }
        throw e;
      }
    });
}

/** After Ctrl-C: cancel the job (or leave it), and tell the user which happened and how to follow up. */
async function interrupted(client: Client, jobId: string, keepRunning: boolean): Promise<void> {
  process.exitCode = 130;
  if (keepRunning) {
    console.error(`interrupted: job ${jobId} keeps running; see it with: evident-jobs results ${jobId}`);
    return;
  }
  try {
    const st = await client.cancelJob(jobId);
    console.error(`interrupted: job ${jobId} ${st.status === 'cancelled' ? 'cancelled' : `already ${st.status}`}`);
  } catch (e) {
    if (e instanceof EvidentApiError && e.code === 'job_finished') {
      console.error(`interrupted: job ${jobId} had already finished; see it with: evident-jobs results ${jobId}`);
      return;
    }
    console.error(`interrupted: job ${jobId} could not be cancelled (${(e as Error).message}); it may still run`);
  }
}
