// README examples run verbatim: each js/ts block of a README, parsed by Node's own parser (`node --check`, so
// syntax the minimum Node lacks fails) and run as a module in an empty directory against the repository's
// packages (their sources, through tsx), with the files the example names copied in beside it.
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { repoRoot, tempDir } from './paths.js';

export interface ReadmeExample {
  readme: string;
  /** Line of the opening fence. */
  line: number;
  code: string;
}

const FENCE = /^```(js|javascript|mjs|ts|typescript)\n([\s\S]*?)^```/gm;

/** The js/ts blocks of a README (path relative to the repository root). */
export function readmeExamples(readme: string): ReadmeExample[] {
  const text = readFileSync(join(repoRoot, readme), 'utf8');
  return [...text.matchAll(FENCE)].map((m) => ({
    readme,
    line: text.slice(0, m.index).split('\n').length,
    code: m[2]!,
  }));
}

/**
 * Checks and runs one example; `files` are copied into its directory under their own names. Returns the run's
 * result, or the check's when Node cannot parse the block.
 */
export function runReadmeExample(
  example: ReadmeExample,
  options: { files?: string[]; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): SpawnSyncReturns<string> {
  const dir = tempDir('evident-readme-');
  try {
    symlinkSync(join(repoRoot, 'node_modules'), join(dir.path, 'node_modules'), 'dir');
    for (const f of options.files ?? []) copyFileSync(f, join(dir.path, basename(f)));
    const file = join(dir.path, 'example.mjs');
    writeFileSync(file, example.code);
    const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    if (check.status !== 0) return check;
    return spawnSync(process.execPath, ['--conditions=evident-source', '--import', 'tsx', file], {
      cwd: dir.path,
      env: { ...process.env, ...options.env },
      encoding: 'utf8',
      timeout: options.timeoutMs ?? 120_000,
    });
  } finally {
    dir.cleanup();
  }
}

/**
 * Registers the tests that a README's examples run verbatim: one that it has any, and one per example (exit 0
 * and something printed). `files` are copied beside each example; `skip` skips them (e.g. a tool is missing).
 */
export function testReadmeExamples(readme: string, options: { files?: string[]; skip?: string | false } = {}): void {
  const examples = readmeExamples(readme);
  test(`${readme} has an example to run`, () => {
    assert.ok(examples.length >= 1);
  });
  for (const example of examples) {
    test(`${readme}:${example.line} runs verbatim`, { skip: options.skip ?? false, timeout: 600_000 }, () => {
      const run = runReadmeExample(example, { files: options.files ?? [], timeoutMs: 540_000 });
      assert.equal(run.status, 0, `exit ${run.status}:\n${run.stderr}`);
      assert.ok(run.stdout.trim().length > 0, 'the example prints its result');
    });
  }
}
