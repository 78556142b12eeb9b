#!/usr/bin/env node
// Runs the test suite with Node's own test runner over the TypeScript sources (via tsx).
// Usage: node scripts/run-tests.mjs [packages/kb ...] [-- extra node --test flags]
// Files are test/**/*.test.ts inside each package. Each file runs in its own process.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, resolve, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const targets = dash === -1 ? argv : argv.slice(0, dash);
const extra = dash === -1 ? [] : argv.slice(dash + 1);

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const pkgs = targets.length
  ? targets.map((t) => resolve(root, t))
  : readdirSync(join(root, 'packages')).map((p) => join(root, 'packages', p));
const files = [];
for (const pkg of pkgs) {
  const testDir = join(pkg, 'test');
  if (existsSync(testDir)) walk(testDir, files);
}
files.sort();
if (files.length === 0) {
  console.error('run-tests: no test files found');
  process.exit(1);
}

const concurrency = process.env.TEST_CONCURRENCY ?? String(Math.max(1, Math.min(2, availableParallelism())));
// A bound on each test and on each file's process (Node applies it to both): a test that hangs, or a file whose
// process never exits, fails by name instead of holding the whole run until CI's own limit ends it unnamed. The
// slowest file takes a few minutes on a loaded 2-core machine; the bound is far above that.
const timeoutMs = process.env.TEST_TIMEOUT_MS ?? String(20 * 60_000);
const args = [
  '--conditions=evident-source',
  '--import',
  'tsx',
  '--test',
  `--test-concurrency=${concurrency}`,
  `--test-timeout=${timeoutMs}`,
  ...extra,
  ...files.map((f) => relative(root, f)),
];
const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env });
process.exit(r.status ?? 1);
