// Every shell example the READMEs mark `<!-- readme-test: runs against npm start -->` runs as written against
// `npm start` (scripts/start.ts), from a working directory laid out like the repository root (packages/,
// node_modules/ and a fresh ./data). The one change made to the text: the ports npm start prints (8000, 8080)
// become the free ports this run got, so the test never collides with a server already running.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@evident/testkit';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const READMES = ['README.md', 'packages/target-discovery/README.md', 'packages/job-service/README.md'];
const MARK = '<!-- readme-test: runs against npm start -->';

interface Example {
  file: string;
  line: number;
  script: string;
}

function examples(): Example[] {
  const out: Example[] = [];
  for (const file of READMES) {
    const text = readFileSync(join(root, file), 'utf8');
    for (let at = text.indexOf(MARK); at >= 0; at = text.indexOf(MARK, at + 1)) {
      const m = /^\s*```sh\n([\s\S]*?)\n```/.exec(text.slice(at + MARK.length));
      assert.ok(m, `${file}: a ${MARK} marker must be followed by a sh block`);
      out.push({ file, line: text.slice(0, at).split('\n').length, script: m[1]! });
    }
  }
  return out;
}

const work = tempDir('evident-readme-');
let server: ChildProcess;
let jobsUrl = '';
let kbUrl = '';

before(async () => {
  for (const name of ['packages', 'node_modules']) symlinkSync(join(root, name), join(work.path, name));
  mkdirSync(join(work.path, 'data'), { mode: 0o700 });
  server = spawn(process.execPath, ['--conditions=evident-source', '--import', 'tsx', join(root, 'scripts/start.ts')], {
    cwd: work.path,
    env: { ...process.env, PORT: '0', KB_CONSOLE_PORT: '0', EVIDENT_LOG_LEVEL: 'warn', EVIDENT_DATA_DIR: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  server.stderr!.on('data', (d) => (said += d));
  await new Promise<void>((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${said}`)));
    server.stdout!.on('data', (d) => {
      said += d;
      jobsUrl ||= /job service listening on (http:\/\/\S+)/.exec(said)?.[1] ?? '';
      kbUrl ||= /KB console listening on (http:\/\/\S+?)\/ /.exec(said)?.[1] ?? '';
      if (jobsUrl && kbUrl) resolve();
    });
  });
});

after(async () => {
  server.kill('SIGINT');
  await new Promise((r) => server.once('exit', r));
  work.cleanup();
});

const found = examples();

test('the READMEs mark their npm start examples', () => {
  assert.ok(found.length >= 4, `found ${found.length}`);
});

for (const ex of found) {
  test(`${ex.file}:${ex.line} runs as written`, async () => {
    const script = ex.script.replaceAll('http://127.0.0.1:8000', jobsUrl).replaceAll('http://127.0.0.1:8080', kbUrl);
    const env = { ...process.env, EVIDENT_URL: undefined, EVIDENT_API_KEY: undefined };
    const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: work.path,
      env,
      encoding: 'utf8',
      timeout: 240_000,
    });
    const where = `${relative(root, join(root, ex.file))}:${ex.line}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
    assert.equal(r.status, 0, where);
    // What the examples promise a reader: an accepted job, then its summary (never an error body).
    assert.doesNotMatch(r.stdout, /"error":\{/, where);
    if (ex.script.includes('targets/discover') || ex.script.includes('submit discover')) {
      assert.match(r.stdout, /"job_id":"td_/, where);
    }
    if (ex.script.includes('evident-jobs results') || ex.script.includes('evident-jobs submit')) {
      assert.match(r.stdout + r.stderr, /^top \d+/m, where);
    }
  });
}
