// Every code block of every README is accounted for (issue 36, point 10): a js/ts block is run from the
// repository root by a README test of its package (testReadmeExamples names the README), a block marked to run
// against npm start is run by packages/job-service/test/readme-examples.test.ts (which finds the marks itself),
// and a block that is deliberately not run says why. A shell block with no mark fails here: either it runs, or the
// README says why not.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  MODULE_LANGS,
  README_MARKS,
  readmeBlocks,
  readmeExamples,
  repoRoot,
  SHELL_LANGS,
  trackedReadmes,
} from '../src/index.js';

/** The text of every package's README test file (packages/<pkg>/test/readme*.test.ts). */
function readmeTests(): string {
  const texts: string[] = [];
  for (const pkg of readdirSync(join(repoRoot, 'packages'))) {
    let names: string[];
    try {
      names = readdirSync(join(repoRoot, 'packages', pkg, 'test'));
    } catch {
      continue;
    }
    for (const n of names.filter((n) => /^readme.*\.test\.ts$/.test(n))) {
      texts.push(readFileSync(join(repoRoot, 'packages', pkg, 'test', n), 'utf8'));
    }
  }
  return texts.join('\n');
}

const readmes = trackedReadmes();

test('the scanner reads fences, their languages and marks', () => {
  const blocks = readmes.flatMap((r) => readmeBlocks(r));
  const root = blocks.filter((b) => b.readme === 'README.md');
  assert.ok(root.some((b) => b.lang === 'js' && b.code.includes("from '@evident/kb'")));
  assert.ok(root.some((b) => b.lang === 'sh' && b.mark === README_MARKS.npmStartShell));
  assert.ok(root.some((b) => b.lang === 'json' && b.mark === undefined));
  for (const b of blocks) assert.doesNotMatch(b.code, /^\s*```/m, `${b.readme}:${b.line}: a fence inside a block`);
});

test('every README code block is run by a test or says why not', () => {
  const tests = readmeTests();
  const problems: string[] = [];
  let run = 0;
  let notRun = 0;
  for (const readme of readmes) {
    for (const b of readmeBlocks(readme)) {
      const where = `${readme}:${b.line} (${b.lang})`;
      const code = MODULE_LANGS.has(b.lang) || SHELL_LANGS.has(b.lang);
      if (b.mark === undefined) {
        if (MODULE_LANGS.has(b.lang)) {
          run++;
          if (!tests.includes(`'${readme}'`)) problems.push(`${where}: no readme*.test.ts runs ${readme}`);
        } else if (SHELL_LANGS.has(b.lang)) {
          problems.push(`${where}: mark it '${README_MARKS.npmStartShell}' or '${README_MARKS.notRun}: <why>'`);
        }
      } else if (b.mark === README_MARKS.npmStartShell) {
        run++;
        if (!SHELL_LANGS.has(b.lang)) problems.push(`${where}: '${b.mark}' is for shell blocks`);
      } else if (b.mark === README_MARKS.npmStartTypescript) {
        run++;
        if (b.lang !== 'ts') problems.push(`${where}: '${b.mark}' is for ts blocks`);
      } else if (b.mark.startsWith(README_MARKS.notRun)) {
        notRun++;
        if (!/^not run: \S.{9,}/.test(b.mark)) problems.push(`${where}: '${b.mark}' must say why it is not run`);
        if (MODULE_LANGS.has(b.lang)) problems.push(`${where}: a js/ts example must run`);
        if (!code) problems.push(`${where}: only code blocks are run; this one needs no mark`);
      } else {
        problems.push(`${where}: unknown mark '${b.mark}'`);
      }
    }
  }
  assert.deepEqual(problems, [], problems.join('\n'));
  assert.ok(run >= 20, `${run} blocks run`);
  assert.ok(notRun * 2 < run, `${notRun} blocks not run against ${run} run: not running a block is the exception`);
});

test('every README named by a README test has an example to run', () => {
  const tests = readmeTests();
  for (const readme of readmes) {
    if (tests.includes(`'${readme}'`)) assert.ok(readmeExamples(readme).length > 0, readme);
  }
});
