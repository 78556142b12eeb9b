// README examples run verbatim from the repository root. One scanner reads every fenced block of a README with the
// `<!-- readme-test: … -->` mark on the line before it, if any; the runner runs a block in a fresh checkout of the
// repository (a `git clone --shared` of the committed tree, with the repository's node_modules linked in), from
// its root, as a reader would, and then asks git what the block left behind: only files under the ignored `work/`
// folder may appear (issue 36, points 9 and 10).
//
// What a block is, by its language and mark:
// - js/ts, no mark: a module run on its own (`testReadmeExamples`); js blocks are first parsed by Node's own
//   parser (`node --check`), so syntax the minimum Node lacks fails.
// - `runs against npm start` (shell) or `typescript against npm start` (ts): run against a started `npm start`
//   by packages/job-service/test/readme-examples.test.ts.
// - `not run: <why>`: deliberately not run (a synopsis with placeholders, a server that runs until stopped, a
//   system install); rare, and the reason is required.
// - any other language (json, text, none): not code.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { repoRoot, tempDir } from './paths.js';

export const MODULE_LANGS: ReadonlySet<string> = new Set(['js', 'javascript', 'mjs', 'ts', 'typescript']);
export const SHELL_LANGS: ReadonlySet<string> = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);
/** The marks a block may carry; `not run` must say why after a colon. */
export const README_MARKS = {
  npmStartShell: 'runs against npm start',
  npmStartTypescript: 'typescript against npm start',
  notRun: 'not run',
} as const;
/** Where examples write: one folder, ignored by git and by Biome. */
export const EXAMPLE_OUTPUT_DIR = 'work';

export interface ReadmeBlock {
  /** README path relative to the repository root. */
  readme: string;
  /** Line of the opening fence. */
  line: number;
  /** The fence's language, lower-cased ('' when none). */
  lang: string;
  code: string;
  /** The text of a `<!-- readme-test: … -->` mark on the last non-blank line before the fence. */
  mark?: string;
}

const MARK = /^\s*<!--\s*readme-test:\s*(.*?)\s*-->\s*$/;
const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;

/** Every fenced block of a README (path relative to the repository root), with its mark. */
export function readmeBlocks(readme: string): ReadmeBlock[] {
  const lines = readFileSync(join(repoRoot, readme), 'utf8').split('\n');
  const blocks: ReadmeBlock[] = [];
  let lastNonBlank = '';
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) {
      if (lines[i]!.trim()) lastNonBlank = lines[i]!;
      continue;
    }
    const [, indent, fence] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]!);
      if (close && close[2]![0] === fence![0] && close[2]!.length >= fence!.length && !close[3]) break;
      body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!);
    }
    const mark = MARK.exec(lastNonBlank)?.[1];
    blocks.push({ readme, line: i + 1, lang: open[3]!.toLowerCase(), code: `${body.join('\n')}\n`, mark });
    i = j;
    lastNonBlank = '';
  }
  return blocks;
}

/** The blocks of a README that run on their own: js/ts modules without a mark. */
export function readmeExamples(readme: string): ReadmeBlock[] {
  return readmeBlocks(readme).filter((b) => MODULE_LANGS.has(b.lang) && b.mark === undefined);
}

/** The README.md files git tracks, relative to the repository root. */
export function trackedReadmes(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--', 'README.md', '**/README.md'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  return out.split('\0').filter(Boolean).sort();
}

/** A fresh checkout of the repository's committed tree, to run examples in as from the repository root. */
export interface RepoCheckout {
  /** The checkout's root. */
  path: string;
  /** `git status` of the checkout, one entry per file, ignored files included (`!! work/x.kb`). */
  status(): string[];
  cleanup(): void;
}

export function checkoutRepository(prefix = 'evident-readme-'): RepoCheckout {
  if (!existsSync(join(repoRoot, '.git'))) throw new Error(`testkit: ${repoRoot} is not a git repository`);
  const dir = tempDir(prefix);
  const path = join(dir.path, 'repo');
  try {
    execFileSync('git', ['clone', '--quiet', '--shared', repoRoot, path], { stdio: ['ignore', 'ignore', 'pipe'] });
    // The packages as installed here (their sources through the evident-source condition).
    symlinkSync(join(repoRoot, 'node_modules'), join(path, 'node_modules'), 'dir');
  } catch (e) {
    dir.cleanup();
    throw e;
  }
  return {
    path,
    status: () =>
      execFileSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored=matching'], {
        cwd: path,
        encoding: 'utf8',
      })
        .split('\0')
        .filter(Boolean),
    cleanup: dir.cleanup,
  };
}

/**
 * What a run left in a checkout, from `git status` before and after: every new entry that is not an ignored
 * file under one of `allowed` (folders relative to the root, `work/` by default). Empty when clean.
 */
export function leftBehind(
  before: string[],
  after: string[],
  allowed: string[] = [`${EXAMPLE_OUTPUT_DIR}/`],
): string[] {
  const had = new Set(before);
  return after.filter((e) => !had.has(e) && !(e.startsWith('!! ') && allowed.some((a) => e.slice(3).startsWith(a))));
}

/**
 * Checks and runs one module example from the root of `root` (a checkout): saved as work/readme-example.mjs (or
 * .ts), as the READMEs tell a reader to save it. Returns the run's result, or the check's when Node cannot
 * parse a js block.
 */
export function runReadmeExample(
  example: ReadmeBlock,
  root: string,
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): SpawnSyncReturns<string> {
  const ts = example.lang === 'ts' || example.lang === 'typescript';
  mkdirSync(join(root, EXAMPLE_OUTPUT_DIR), { recursive: true });
  const file = join(EXAMPLE_OUTPUT_DIR, ts ? 'readme-example.ts' : 'readme-example.mjs');
  writeFileSync(join(root, file), example.code);
  if (!ts) {
    const check = spawnSync(process.execPath, ['--check', file], { cwd: root, encoding: 'utf8' });
    if (check.status !== 0) return check;
  }
  return spawnSync(process.execPath, ['--conditions=evident-source', '--import', 'tsx', file], {
    cwd: root,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
  });
}

export interface ReadmeTestOptions {
  /** Skip every example (e.g. a tool they need is missing), with the reason. */
  skip?: string | false;
  /** Per example: environment, a skip reason, and what to release afterwards (e.g. a temporary database). */
  prepare?: (
    example: ReadmeBlock,
  ) => Promise<{ env?: NodeJS.ProcessEnv; skip?: string | false; cleanup?: () => unknown } | undefined>;
  /** Further assertions on a successful run (what the example says it prints). */
  check?: (example: ReadmeBlock, run: SpawnSyncReturns<string>) => void;
  timeoutMs?: number;
}

/**
 * Registers the tests that a set of READMEs' module examples run verbatim from the repository root, in order,
 * in one checkout: one test that there are examples, and one per example (exit 0, something printed, nothing
 * left outside work/).
 */
export function testReadmeExamples(readmes: string | string[], options: ReadmeTestOptions = {}): void {
  const list = typeof readmes === 'string' ? [readmes] : readmes;
  const examples = list.flatMap((r) => readmeExamples(r));
  let checkout: RepoCheckout | undefined;
  before(() => {
    if (!options.skip) checkout = checkoutRepository();
  });
  after(() => checkout?.cleanup());
  test(`${list.join(', ')}: examples to run`, () => {
    for (const r of list) assert.ok(readmeExamples(r).length >= 1, `${r} has no js/ts example`);
  });
  const timeoutMs = options.timeoutMs ?? 540_000;
  for (const example of examples) {
    const name = `${example.readme}:${example.line} runs verbatim from the repository root`;
    test(name, { skip: options.skip ?? false, timeout: timeoutMs + 60_000 }, async (t) => {
      const prepared = (await options.prepare?.(example)) ?? {};
      if (prepared.skip) return t.skip(prepared.skip);
      try {
        const root = checkout!.path;
        const before = checkout!.status();
        const run = runReadmeExample(example, root, { timeoutMs, env: prepared.env });
        const where = `${example.readme}:${example.line}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
        assert.equal(run.status, 0, `exit ${run.status}: ${where}`);
        assert.ok(run.stdout.trim().length > 0, `the example prints its result: ${where}`);
        const left = leftBehind(before, checkout!.status());
        assert.deepEqual(left, [], `the example left files outside ${EXAMPLE_OUTPUT_DIR}/: ${left.join(', ')}`);
        options.check?.(example, run);
      } finally {
        await prepared.cleanup?.();
      }
    });
  }
}
