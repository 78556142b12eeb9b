// Every shell example the READMEs mark `<!-- readme-test: runs against npm start -->` runs as written against
// `npm start` (scripts/start.ts), from a working directory laid out like the repository root (packages/,
// node_modules/, package.json and a fresh ./data). The one change made to the text: the ports npm start prints (8000, 8080)
// become the free ports this run got, so the test never collides with a server already running.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@evident/testkit';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const READMES = ['README.md', 'packages/target-discovery/README.md', 'packages/job-service/README.md'];
// A shell block runs with bash; a TypeScript block is saved at the root and run with `npx tsx`, as its README says.
const MARKS = {
  sh: '<!-- readme-test: runs against npm start -->',
  ts: '<!-- readme-test: typescript against npm start -->',
} as const;

interface Example {
  file: string;
  line: number;
  lang: keyof typeof MARKS;
  script: string;
}

function examples(): Example[] {
  const out: Example[] = [];
  for (const file of READMES) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const lang of ['sh', 'ts'] as const) {
      const mark = MARKS[lang];
      for (let at = text.indexOf(mark); at >= 0; at = text.indexOf(mark, at + 1)) {
        const m = new RegExp(`^\\s*\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``).exec(text.slice(at + mark.length));
        assert.ok(m, `${file}: a ${mark} marker must be followed by a ${lang} block`);
        out.push({ file, line: text.slice(0, at).split('\n').length, lang, script: m[1]! });
      }
    }
  }
  return out;
}

const work = tempDir('evident-readme-');
let server: ChildProcess;
let jobsUrl = '';
let kbUrl = '';

before(async () => {
  for (const name of ['packages', 'node_modules', 'package.json']) symlinkSync(join(root, name), join(work.path, name));
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
    const env: NodeJS.ProcessEnv = { ...process.env, EVIDENT_URL: undefined, EVIDENT_API_KEY: undefined };
    let command = ['bash', '-e', '-o', 'pipefail', '-c', script];
    if (ex.lang === 'ts') {
      writeFileSync(join(work.path, 'example.ts'), script);
      env.EVIDENT_API_KEY = JSON.parse(readFileSync(join(work.path, 'data/dev-api-key.json'), 'utf8')).key;
      command = ['npx', 'tsx', 'example.ts'];
    }
    const r = spawnSync(command[0]!, command.slice(1), {
      cwd: work.path,
      env,
      encoding: 'utf8',
      timeout: 480_000,
    });
    const where = `${relative(root, join(root, ex.file))}:${ex.line}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
    assert.equal(r.status, 0, where);
    // What the examples promise a reader: an accepted job, then its summary (never an error body).
    assert.doesNotMatch(r.stdout, /"error":\{/, where);
    if (ex.script.includes('targets/discover') || ex.script.includes('submit discover')) {
      if (ex.lang === 'ts') assert.match(r.stdout, /^job td_\w+ accepted/m, where);
      else assert.match(r.stdout, /"job_id":"td_/, where);
    }
    if (ex.script.includes('format=html')) {
      // the page the example saves: the viewer and the docked poses in it
      const page = readFileSync(join(work.path, 'poses.html'), 'utf8');
      assert.match(page, /\$3Dmol/, where);
      assert.match(page, /"docking_score":-\d/, where);
    }
    if (/evident-jobs (results|submit)|getResults/.test(ex.script)) {
      assert.match(r.stdout + r.stderr, /^top \d+/m, where);
    }
  });
}
