// evident-design run as a user runs it: a child process, on a PMO profile and on an ExternalProcess Python scorer,
// with small budgets; the files it writes are read back and checked against the profile's own scores; bad input
// is one line naming the field or file, exit status 2, and nothing written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@evident/testkit';
import { aucTopK, parseScoringProfile } from '@evident/compound-generation';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, '..', 'src', 'cli', 'main.ts');
const PMO = join(here, '..', 'profiles', 'pmo');
const GOOD_SCORER = join(here, 'fixtures', 'external-scorers', 'good.py');
const MISBEHAVE = join(here, 'fixtures', 'external-scorers', 'misbehave.py');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd?: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=evident-source', '--import', 'tsx', CLI, ...args],
      { cwd, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** RFC 4180 rows: fields separated by commas, quoted when they hold a comma, quote or newline. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',' || ch === '\n') {
      row.push(field);
      field = '';
      if (ch === '\n') {
        rows.push(row);
        row = [];
      }
    } else field += ch;
  }
  return rows;
}

function externalProfile(args: string) {
  return `
[scoring]
type = "arithmetic_mean"

[[scoring.component]]
[scoring.component.ExternalProcess]
[[scoring.component.ExternalProcess.endpoint]]
name = "length"
weight = 1
params.executable = "/usr/bin/python3"
params.args = ${JSON.stringify(args)}
params.property = "predictions"
transform.type = "sigmoid"
transform.low = 0.2
transform.high = 0.6
transform.k = 0.5
`;
}

test('a PMO profile: top.csv, top.sdf, calls.csv, summary.json and curves.svg agree with the profile', async () => {
  const dir = tempDir('evident-design-');
  try {
    const out = join(dir.path, 'run');
    const profileFile = join(PMO, 'albuterol_similarity.toml');
    const r = await cli([
      'optimize',
      profileFile,
      '--budget',
      '200',
      '--seed',
      '3',
      '--strategy',
      'graph_ga',
      '--out',
      out,
      '--top',
      '20',
    ]);
    assert.equal(r.code, 0, r.stderr);

    const calls = csvRows(readFileSync(join(out, 'calls.csv'), 'utf8'));
    assert.deepEqual(calls[0], ['call', 'smiles', 'score', 'similarity', 'similarity (raw)']);
    const body = calls.slice(1);
    assert.equal(body.length, 200);
    assert.deepEqual(
      body.map((c) => Number(c[0])),
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    assert.equal(new Set(body.map((c) => c[1])).size, 200, 'each call is a distinct molecule');

    // The logged scores are the profile's own.
    const profile = await parseScoringProfile(readFileSync(profileFile, 'utf8'));
    try {
      const sample = body.filter((_, i) => i % 20 === 0);
      const scored = await profile.score(sample.map((c) => c[1]!));
      for (const [i, c] of sample.entries()) assert.equal(Number(c[2]), scored[i]!.total, c[1]);
    } finally {
      profile.dispose();
    }

    const scores = body.map((c) => Number(c[2]));
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.equal(summary.calls_used, 200);
    assert.equal(summary.max_oracle_calls, 200);
    assert.equal(summary.stop_reason, 'budget_exhausted');
    assert.equal(summary.strategy, 'graph_ga');
    assert.equal(summary.seed, 3);
    assert.equal(summary.auc_top10, aucTopK(scores, 10, 200));
    assert.equal(summary.auc_top1, aucTopK(scores, 1, 200));
    assert.ok(summary.elapsed_s > 0);

    const sorted = [...scores].sort((a, b) => b - a);
    const top = csvRows(readFileSync(join(out, 'top.csv'), 'utf8'));
    assert.deepEqual(top[0]!.slice(0, 4), ['rank', 'smiles', 'score', 'call']);
    assert.equal(top.length - 1, 20);
    top.slice(1).forEach((row, i) => {
      assert.equal(Number(row[2]), sorted[i]);
      assert.equal(body[Number(row[3]) - 1]![1], row[1], 'the call column names the call that scored it');
    });
    assert.equal(summary.top1, sorted[0]);

    const sdf = readFileSync(join(out, 'top.sdf'), 'utf8');
    const records = sdf.split('$$$$\n').filter((r) => r.trim());
    assert.equal(records.length, 20);
    records.forEach((rec, i) => {
      assert.match(rec, /^rank \d+\n\s+RDKit\s+2D\n/);
      assert.match(rec, /M {2}END\n/);
      const score = /> <score>\n(.*)\n/.exec(rec)?.[1];
      assert.equal(Number(score), Number(top[i + 1]![2]));
      assert.equal(/> <smiles>\n(.*)\n/.exec(rec)?.[1], top[i + 1]![1]);
      const xs = [...rec.matchAll(/^\s+(-?\d+\.\d{4})\s+(-?\d+\.\d{4})\s+0\.0000 [A-Z]/gm)];
      assert.ok(
        xs.some((m) => Number(m[1]) !== 0 || Number(m[2]) !== 0),
        'atoms have 2D coordinates',
      );
    });

    const svg = readFileSync(join(out, 'curves.svg'), 'utf8');
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(svg, /<path class="top1" d="M[^"]+"/);
    assert.match(svg, /<path class="top10" d="M[^"]+"/);

    // Not a TTY: plain progress lines, the last at the full budget.
    assert.match(r.stderr, /^calls \d+\/200 .*best \d\.\d{3}\s+top-10 \d\.\d{3}$/m);
    assert.match(r.stderr, /calls 200\/200 \(100%\)/);
  } finally {
    dir.cleanup();
  }
});

test('an ExternalProcess Python scorer: every call is scored by the script, a starting pool from --pool', async () => {
  const dir = tempDir('evident-design-');
  try {
    const profileFile = join(dir.path, 'length.toml');
    writeFileSync(profileFile, externalProfile(`${GOOD_SCORER} --scale 0.01`));
    const pool = join(dir.path, 'pool.smi');
    writeFileSync(
      pool,
      '# a few drugs\nCC(=O)Oc1ccccc1C(=O)O aspirin\nCN1C=NC2=C1C(=O)N(C(=O)N2C)C caffeine\nCC(C)Cc1ccc(cc1)C(C)C(=O)O\n\nc1ccccc1\n',
    );
    const out = join(dir.path, 'out');
    const r = await cli([
      'optimize',
      profileFile,
      '--budget',
      '150',
      '--out',
      out,
      '--pool',
      pool,
      '--strategy',
      'graph_ga',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const calls = csvRows(readFileSync(join(out, 'calls.csv'), 'utf8'));
    assert.deepEqual(calls[0], ['call', 'smiles', 'score', 'length', 'length (raw)']);
    assert.ok(calls.length - 1 > 4, 'the GA went beyond the pool');
    for (const c of calls.slice(1)) assert.equal(Number(c[4]), c[1]!.length * 0.01, c[1]);
    // The pool was screened first.
    const poolCanonical = [
      'CC(=O)Oc1ccccc1C(=O)O',
      'Cn1c(=O)c2c(ncn2C)n(C)c1=O',
      'CC(C)Cc1ccc(C(C)C(=O)O)cc1',
      'c1ccccc1',
    ];
    assert.deepEqual(new Set(calls.slice(1, 5).map((c) => c[1])), new Set(poolCanonical));
  } finally {
    dir.cleanup();
  }
});

test('a scorer that crashes fails the run: exit status 1, the reason, nothing written', async () => {
  const dir = tempDir('evident-design-');
  try {
    const profileFile = join(dir.path, 'crash.toml');
    writeFileSync(profileFile, externalProfile(`${MISBEHAVE} crash`));
    const out = join(dir.path, 'out');
    const r = await cli(['optimize', profileFile, '--budget', '50', '--out', out, '--strategy', 'random_screen']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /evident-design: the run failed: external scorer .*exit.*model file is missing/);
    assert.equal(existsSync(out), false);
  } finally {
    dir.cleanup();
  }
});

test('bad input: one line naming the field or file, exit status 2, nothing written', async () => {
  const dir = tempDir('evident-design-');
  try {
    const out = join(dir.path, 'out');
    const qed = join(PMO, 'qed.toml');
    const badToml = join(dir.path, 'bad.toml');
    writeFileSync(badToml, '[scoring\ntype = "arithmetic_mean"\n');
    const unknown = join(dir.path, 'unknown.toml');
    writeFileSync(
      unknown,
      '[scoring]\ntype = "geometric_mean"\n[[scoring.component]]\n[scoring.component.ChemProp]\n[[scoring.component.ChemProp.endpoint]]\nname = "x"\n',
    );
    const cases: Array<[string[], RegExp]> = [
      [
        ['optimize', join(dir.path, 'missing.toml'), '--budget', '10', '--out', out],
        /profile .*missing\.toml: no such file/,
      ],
      [['optimize', badToml, '--budget', '10', '--out', out], /profile .*bad\.toml: .*line 1/],
      [
        ['optimize', unknown, '--budget', '10', '--out', out],
        /\/scoring\/component\/0\/ChemProp: unknown or unsupported component "ChemProp"/,
      ],
      [
        ['optimize', qed, '--budget', '0', '--out', out],
        /--budget must be a whole number from 1 to 1000000 \(got "0"\)/,
      ],
      [['optimize', qed, '--budget', '12abc', '--out', out], /--budget must be a whole number/],
      [['optimize', qed, '--budget', '2000000', '--out', out], /--budget must be a whole number from 1 to 1000000/],
      [['optimize', qed, '--out', out], /--budget is required/],
      [['optimize', qed, '--budget', '10'], /--out is required/],
      [
        ['optimize', qed, '--budget', '10', '--out', out, '--strategy', 'reinvent'],
        /--strategy must be one of default, /,
      ],
      [['optimize', qed, '--budget', '10', '--out', out, '--seed', '-1'], /--seed|Option '-1'|argument/],
      [
        ['optimize', qed, '--budget', '10', '--out', out, '--pool', join(dir.path, 'none.smi')],
        /--pool .*none\.smi: no such file/,
      ],
      [['optimize', qed, '--budget', '10', '--out', out, '--bogus'], /Unknown option '--bogus'/],
      [['design', qed], /unknown command "design"/],
      [['optimize', qed, '--budget', '10', '--out', qed], /--out .*qed\.toml: exists and is not a folder/],
    ];
    const runs: Run[] = [];
    for (let i = 0; i < cases.length; i += 4) {
      runs.push(...(await Promise.all(cases.slice(i, i + 4).map(([args]) => cli(args)))));
    }
    runs.forEach((r, i) => {
      const [args, expected] = cases[i]!;
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, `one line: ${r.stderr}`);
      assert.match(lines[0]!, /^evident-design: /);
      assert.match(lines[0]!, expected);
    });
    assert.equal(existsSync(out), false, 'nothing written');
  } finally {
    dir.cleanup();
  }
});

test('--help says how to use it', async () => {
  const r = await cli(['--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^Usage: evident-design optimize PROFILE --budget N --out DIR/);
  for (const option of ['--budget', '--seed', '--out', '--strategy', '--pool']) assert.ok(r.stdout.includes(option));
});
