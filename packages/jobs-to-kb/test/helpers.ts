// A real job service on a free port (embedded: SQLite and worker threads), the jobs the tests export, and the CLI.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configFromEnv, createClient, startServer, type Client, type JobStatus } from '@evident/job-service';
import { tempDir } from '@evident/testkit';

export const discoveryRequest = () =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL('../../target-discovery/examples/request.json', import.meta.url)), 'utf8'),
  ) as Record<string, unknown>;

/** A small design job: four molecules on a small budget. */
export const designRequest = {
  target_uniprot: 'P00533',
  binding_site: { residues: ['K721', 'L834', 'T790'] },
  num_molecules: 4,
  // No docking here: the export is about the results' shape, and a docked run needs a structure (cg-target tests).
  options: { seed: 11, max_evaluations: 400, docking: false },
};

/** A scoring-mode compound job (issue 38): PMO's QED objective as a REINVENT 4 profile, a small oracle budget. */
export const scoringRequest = {
  target_uniprot: 'P00533',
  binding_site: { residues: ['K721', 'L834', 'T790'] },
  num_molecules: 3,
  scoring: { type: 'arithmetic_mean', component: [{ Qed: { endpoint: [{ name: 'qed', weight: 1 }] } }] },
  budget: { max_oracle_calls: 60 },
  options: { seed: 3 },
};

export interface JobService {
  url: string;
  key: string;
  client: Client;
  run(route: string, request: Record<string, unknown>): Promise<JobStatus>;
  close(): Promise<void>;
}

export async function startJobService(): Promise<JobService> {
  const dir = tempDir('evident-jobs-to-kb-');
  const server = await startServer(
    { ...configFromEnv({}), port: 0, dataDir: dir.path, workerThreads: 2, logLevel: 'silent' },
    { logger: false },
  );
  const key = (await server.store.createKey({ name: 'jobs-to-kb', plan: 'researcher' })).key;
  const client = createClient({ baseUrl: server.url, apiKey: key });
  return {
    url: server.url,
    key,
    client,
    async run(route, request) {
      const accepted = await client.submit(route, request);
      const done = await client.waitForJob(accepted.job_id, {
        intervalMs: 100,
        maxIntervalMs: 1000,
        timeoutMs: 300_000,
      });
      if (done.status !== 'completed')
        throw new Error(`job ${done.job_id} ${done.status}: ${JSON.stringify(done.error)}`);
      return done;
    },
    async close() {
      await server.close().catch(() => {});
      dir.cleanup();
    },
  };
}

const cliPath = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

/** `evident-export ...args` from the sources, as a child process. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--conditions=evident-source', '--import', 'tsx', cliPath, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

const jobsCliPath = fileURLToPath(new URL('../../job-service/src/cli/main.ts', import.meta.url));
const rootBin = fileURLToPath(new URL('../../../node_modules/.bin', import.meta.url));

/** `evident-jobs ...args` from the job service's sources, with the repository's bins on PATH (as npx gives). */
export function runJobsCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const PATH = `${rootBin}:${process.env.PATH ?? ''}`;
  const child = spawn(process.execPath, ['--conditions=evident-source', '--import', 'tsx', jobsCliPath, ...args], {
    env: { ...process.env, PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}
