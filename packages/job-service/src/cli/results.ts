// `evident-jobs results <job_id>`: a readable summary of a job's results (its status while it runs), or the
// full results as JSON or CSV, to a file or stdout.
import { EvidentError } from '@evident/contract';
import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { createClient, EvidentApiError } from '../client/client.js';
import { configFromEnv } from '../config.js';
import { loadJobKinds } from '../kinds/registry.js';

export function resultsCommand(program: Command): void {
  program
    .command('results')
    .description("show a job's results: a summary of the top rows (default), or all of them with --json / --csv")
    .argument('<job_id>', 'the job id a submission returned')
    .option('--url <url>', 'service base URL (default: $EVIDENT_URL or http://127.0.0.1:8000)')
    .option('--api-key <key>', 'API key (default: $EVIDENT_API_KEY)')
    .option('--top <n>', 'rows in the summary', (v) => Number.parseInt(v, 10), 10)
    .option('--json', 'the full results document as JSON')
    .option('--csv', 'the full table as CSV')
    .option('--calls-csv', 'the oracle call log as CSV (a compound-design job run with a scoring profile)')
    .option('--enrichment-csv', 'the gene-set enrichment as CSV (a discovery job run with options.enrichment)')
    .option('--wait', 'wait for the job to finish first')
    .option(
      '--out <file>',
      'write the full results (JSON, or CSV with --csv, the call log with --calls-csv, the enrichment with ' +
        '--enrichment-csv) here; the summary still prints',
    )
    .option('--link', 'print a signed link that opens the results in a browser without the key (see --expires-in)')
    .option('--expires-in <seconds>', 'how long the --link lasts (60-86400; default 3600)', (v) => Number(v))
    .action(async (jobId: string, o) => {
      const apiKey = o.apiKey ?? process.env.EVIDENT_API_KEY;
      if (!apiKey) throw new EvidentError('invalid_usage', 'no API key: pass --api-key or set EVIDENT_API_KEY');
      if (!Number.isInteger(o.top) || o.top < 1)
        throw new EvidentError('invalid_usage', '--top must be a whole number of at least 1');
      const client = createClient({ baseUrl: o.url ?? process.env.EVIDENT_URL ?? 'http://127.0.0.1:8000', apiKey });
      try {
        const status = o.wait
          ? await client.waitForJob(jobId, { intervalMs: 250, maxIntervalMs: 5000 })
          : await client.getJob(jobId);
        if (status.status !== 'completed') {
          console.log(JSON.stringify(status));
          process.exitCode = status.status === 'processing' ? 0 : 2;
          return;
        }
        if (o.link) {
          const link = await client.createResultsLink(jobId, { expiresIn: o.expiresIn });
          console.log(link.url);
          console.error(
            `open it in a browser; it works until ${link.expires_at} (anyone holding it can read these results)`,
          );
          return;
        }
        if (o.callsCsv && !o.out) return void process.stdout.write(await client.getCallLogCsv(jobId));
        if (o.enrichmentCsv && !o.out) return void process.stdout.write(await client.getEnrichmentCsv(jobId));
        if (o.csv && !o.out) return void process.stdout.write(await client.getResultsCsv(jobId));
        const results = await client.getResults(jobId);
        if (o.json && !o.out) return void console.log(JSON.stringify(results));
        if (o.out) {
          const text = o.callsCsv
            ? await client.getCallLogCsv(jobId)
            : o.enrichmentCsv
              ? await client.getEnrichmentCsv(jobId)
              : o.csv
                ? await client.getResultsCsv(jobId)
                : JSON.stringify(results);
          writeFileSync(o.out, text);
          console.error(`results written to ${o.out}`);
        }
        const kinds = await loadJobKinds(configFromEnv().kindModules);
        const kind = kinds.find((k) => k.id === status.kind);
        const lines = kind?.summarize?.(results, o.top);
        if (!lines) return void console.log(JSON.stringify(results));
        for (const line of lines) console.log(line);
      } catch (e) {
        if (!(e instanceof EvidentApiError)) throw e;
        console.error(`error ${e.status} ${e.code}: ${e.message}`);
        process.exitCode = 1;
      }
    });
}
