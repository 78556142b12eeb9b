// Every README block marked `<!-- readme-test: runs against npm start -->` (shell) or `typescript against npm
// start` (TypeScript) runs as written against `npm start` (scripts/start.ts), from the root of a fresh checkout of
// the repository (@evident/testkit's checkoutRepository and scanner), with a fresh ./data. The blocks read the
// job service's URL from EVIDENT_URL (npm start's port when unset), which this test points at the free port its
// npm start got; the text itself is not changed. After each block, git says what it left: only files under the
// ignored work/ and data/ folders may appear (issue 36, points 9 and 10).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkoutRepository,
  leftBehind,
  README_MARKS,
  readmeBlocks,
  repoRoot,
  SHELL_LANGS,
  trackedReadmes,
  type ReadmeBlock,
  type RepoCheckout,
} from '@evident/testkit';

const found: ReadmeBlock[] = trackedReadmes()
  .flatMap((r) => readmeBlocks(r))
  .filter(
    (b) =>
      (b.mark === README_MARKS.npmStartShell && SHELL_LANGS.has(b.lang)) ||
      (b.mark === README_MARKS.npmStartTypescript && b.lang === 'ts'),
  );

let checkout: RepoCheckout;
let server: ChildProcess;
let jobsUrl = '';

before(async () => {
  checkout = checkoutRepository();
  mkdirSync(join(checkout.path, 'data'), { mode: 0o700 });
  server = spawn(
    process.execPath,
    ['--conditions=evident-source', '--import', 'tsx', join(repoRoot, 'scripts/start.ts')],
    {
      cwd: checkout.path,
      env: { ...process.env, PORT: '0', KB_CONSOLE_PORT: '0', EVIDENT_LOG_LEVEL: 'warn', EVIDENT_DATA_DIR: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let said = '';
  server.stderr!.on('data', (d) => (said += d));
  await new Promise<void>((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${said}`)));
    server.stdout!.on('data', (d) => {
      said += d;
      jobsUrl ||= /job service listening on (http:\/\/\S+)/.exec(said)?.[1] ?? '';
      if (jobsUrl && /KB console listening on/.test(said)) resolve();
    });
  });
});

after(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGINT');
    await new Promise((r) => server.once('exit', r));
  }
  checkout?.cleanup();
});

test('the READMEs mark their npm start examples', () => {
  assert.ok(found.length >= 5, `found ${found.length}`);
});

for (const ex of found) {
  test(`${ex.readme}:${ex.line} runs as written`, async () => {
    // A block that names npm start's port other than as the default of EVIDENT_URL would ignore a moved port.
    const commands = ex.code
      .split('\n')
      .filter((l) => !/^\s*(#|\/\/)/.test(l))
      .join('\n')
      .replace(/\$\{EVIDENT_URL:-http:\/\/127\.0\.0\.1:8000\}/g, '')
      .replaceAll("process.env.EVIDENT_URL ?? 'http://127.0.0.1:8000'", '');
    assert.doesNotMatch(commands, /127\.0\.0\.1:8000/, `${ex.readme}:${ex.line}: read the URL from EVIDENT_URL`);

    const root = checkout.path;
    const key = JSON.parse(readFileSync(join(root, 'data/dev-api-key.json'), 'utf8')).key;
    const env: NodeJS.ProcessEnv = { ...process.env, EVIDENT_URL: jobsUrl, EVIDENT_API_KEY: undefined };
    let command = ['bash', '-e', '-o', 'pipefail', '-c', ex.code];
    if (ex.lang === 'ts') {
      // Saved under work/ at the root and run there, as the README says (on the sources, as every test runs).
      mkdirSync(join(root, 'work'), { recursive: true });
      writeFileSync(join(root, 'work/readme-example.ts'), ex.code);
      env.EVIDENT_API_KEY = key;
      command = [process.execPath, '--conditions=evident-source', '--import', 'tsx', 'work/readme-example.ts'];
    }
    const statusBefore = checkout.status();
    // A hang guard, not a time limit: a docking example's niced Vina runs took over 480 s on a loaded 2-core CI
    // machine with another docking example beside it.
    const r = spawnSync(command[0]!, command.slice(1), { cwd: root, env, encoding: 'utf8', timeout: 900_000 });
    const where = `${ex.readme}:${ex.line}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
    assert.equal(r.status, 0, where);
    // What the examples promise a reader: an accepted job, then its summary (never an error body).
    assert.doesNotMatch(r.stdout, /"error":\{/, where);
    if (ex.code.includes('targets/discover') || ex.code.includes('submit discover')) {
      if (ex.lang === 'ts') assert.match(r.stdout, /^job td_\w+ accepted/m, where);
      else assert.match(r.stdout, /"job_id":"td_/, where);
    }
    if (ex.code.includes('format=html')) {
      // the page the example saves: the viewer and the docked poses in it
      const page = readFileSync(join(root, 'work/poses.html'), 'utf8');
      assert.match(page, /\$3Dmol/, where);
      assert.match(page, /"docking_score":-\d/, where);
    }
    if (/evident-jobs (results|submit)|getResults/.test(ex.code)) {
      assert.match(r.stdout + r.stderr, /^top \d+/m, where);
    }
    const left = leftBehind(statusBefore, checkout.status(), ['work/', 'data/']);
    assert.deepEqual(left, [], `${ex.readme}:${ex.line} left files outside work/ and data/`);
  });
}
