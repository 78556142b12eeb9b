// `npm start` (scripts/start.ts): embedded server, printed URL and development key, key reused across starts.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, tempDir } from '@evident/testkit';
import { demoKindModule, http, killHard } from './helpers.js';

const dir = tempDir('evident-jobs-start-');
const children: ChildProcess[] = [];
after(async () => {
  for (const c of children) await killHard(c);
  dir.cleanup();
});

/** SIGTERM, as Ctrl-C would: npm start stops both products (SIGKILL would orphan the KB console). */
function stop(child: ChildProcess): Promise<void> {
  return new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) return r();
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

async function start(): Promise<{ child: ChildProcess; url: string; key: string; kbUrl: string }> {
  const child = spawn(process.execPath, ['--conditions=evident-source', '--import', 'tsx', 'scripts/start.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: '0',
      EVIDENT_DATA_DIR: dir.path,
      EVIDENT_JOB_KIND_MODULES: demoKindModule,
      KB_CONSOLE_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    // A generous bound: both products start from TypeScript sources, which is slow on a busy machine.
    const t = setTimeout(() => reject(new Error(`npm start printed: ${out}`)), 120_000);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before listening: ${out}`)));
    child.stdout!.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      const key = /development key: (evk_\S+)/.exec(out)?.[1];
      const kbUrl = /KB console listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url && key && kbUrl) {
        clearTimeout(t);
        resolve({ child, url, key, kbUrl });
      }
    });
  });
}

test('npm start serves both products on 127.0.0.1, prints a working development key, and reuses it', async () => {
  const a = await start();
  const health = await http(a.kbUrl, 'GET', '/api/v1/health');
  assert.equal(health.status, 200, health.text);
  assert.equal(typeof health.body.score, 'number');
  const sub = await http(a.url, 'POST', '/v1/demo/run', { key: a.key, body: { items: 1 } });
  assert.equal(sub.status, 202);
  assert.equal(statSync(join(dir.path, 'dev-api-key.json')).mode & 0o777, 0o600);
  await stop(a.child);
  const b = await start();
  assert.equal(b.key, a.key);
  assert.equal((await http(b.url, 'GET', `/v1/jobs/${sub.body.job_id}`, { key: b.key })).status, 200);
  await stop(b.child);
});
