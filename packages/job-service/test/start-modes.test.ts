// `npm start` keeps its data to its user: the data directory it creates is 0700, the KB's SQLite files 0600
// (as the job store's are).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, tempDir } from '@evident/testkit';
import { demoKindModule, http, killHard } from './helpers.js';

const parent = tempDir('evident-start-modes-');
const dataDir = join(parent.path, 'data');
let child: ChildProcess | undefined;
after(async () => {
  if (child) await killHard(child);
  parent.cleanup();
});

test('npm start creates its data directory 0700 and the KB base 0600', async () => {
  child = spawn(process.execPath, ['--conditions=evident-source', '--import', 'tsx', 'scripts/start.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: '0',
      EVIDENT_DATA_DIR: dataDir,
      EVIDENT_JOB_KIND_MODULES: demoKindModule,
      KB_CONSOLE_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const kbUrl = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`npm start printed: ${out}`)), 30_000);
    child!.stdout!.on('data', (d) => {
      out += d;
      const url = /KB console listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url) {
        clearTimeout(t);
        resolve(url);
      }
    });
  });
  assert.equal((await http(kbUrl, 'GET', '/api/v1/health')).status, 200);
  assert.equal(statSync(dataDir).mode & 0o777, 0o700);
  const base = join(dataDir, 'kb.sqlite');
  for (const f of [base, `${base}-wal`, `${base}-shm`]) {
    if (existsSync(f)) assert.equal(statSync(f).mode & 0o777, 0o600, f);
  }
  assert.ok(existsSync(base));
});
