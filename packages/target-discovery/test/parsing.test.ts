// Input parsing, sample matching and every listed kind of bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  discoverTargets,
  decodeBase64Text,
  TargetDiscoveryInputError,
  type DiscoveryRequest,
} from '@evident/target-discovery';
import { at } from './helpers.js';

// A small log-scale study: 30 features, 3 case + 3 control + 1 other-condition sample.
function logMatrix(sep = ',', quote = false): string {
  const samples = ['s1', 's2', 's3', 's4', 's5', 's6', 's7'];
  const q = (s: string) => (quote ? `"${s}"` : s);
  const lines = [[q('gene'), ...samples.map(q)].join(sep)];
  for (let g = 0; g < 30; g++) {
    const vals = samples.map((_, j) => (6 + Math.sin(g * 7 + j * 3) + (g < 3 && j < 3 ? 2 : 0)).toFixed(4));
    lines.push([q(`G${g}`), ...vals].join(sep));
  }
  return `${lines.join('\n')}\n`;
}
const META =
  'sample_id,group,batch\ns1,tumor,a\ns2,tumor,b\ns3,tumor,a\ns4,normal,b\ns5,normal,a\ns6,normal,b\ns7,other,a\ns9,tumor,a\n';

function req(over: Partial<DiscoveryRequest> = {}): DiscoveryRequest {
  return {
    expression_matrix: logMatrix(),
    metadata: META,
    condition_column: 'group',
    case_value: 'tumor',
    control_value: 'normal',
    options: { include_druggability: false },
    ...over,
  };
}

function rejects(r: DiscoveryRequest, code: string, field: string, message: RegExp) {
  assert.throws(
    () => discoverTargets(r),
    (e: unknown) => {
      assert.ok(e instanceof TargetDiscoveryInputError, String(e));
      assert.equal(e.code, code);
      assert.equal(e.field, field);
      assert.match(e.message, message);
      return true;
    },
  );
}

test('CSV: samples matched by id, others excluded and reported', () => {
  const r = discoverTargets(req());
  assert.deepEqual(r.summary.samples.case.ids, ['s1', 's2', 's3']);
  assert.deepEqual(r.summary.samples.control.ids, ['s4', 's5', 's6']);
  assert.deepEqual(r.summary.samples.excluded, [
    { sample_id: 's7', reason: 'group is "other" (neither case nor control)' },
    { sample_id: 's9', reason: 'not in expression matrix' },
  ]);
  assert.equal(r.summary.features_tested, 30);
  assert.equal(r.summary.pipeline.name, 'limma');
});

test('TSV with quoted fields and CRLF gives the same result as CSV', () => {
  const a = discoverTargets(req());
  const b = discoverTargets(
    req({ expression_matrix: logMatrix('\t', true).replace(/\n/g, '\r\n'), metadata: META.replace(/,/g, '\t') }),
  );
  assert.deepEqual(b.table.rows, a.table.rows);
});

test('transposed matrix (samples in rows) is recognised from the sample ids', () => {
  const lines = logMatrix()
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const t = at(lines, 0)
    .map((_, j) => lines.map((row) => row[j]).join(','))
    .join('\n');
  const r = discoverTargets(req({ expression_matrix: t }));
  assert.equal(r.summary.input.orientation, 'samples_in_rows');
  assert.deepEqual(r.table.rows, discoverTargets(req()).table.rows);
});

test('metadata sample column found by name when it is not first', () => {
  const meta = 'group,sample\ntumor,s1\ntumor,s2\ntumor,s3\nnormal,s4\nnormal,s5\nnormal,s6\n';
  const r = discoverTargets(req({ metadata: meta }));
  assert.equal(r.summary.samples.case.ids.length, 3);
});

test('NA and empty cells are left out of each fit and reported', () => {
  const m = logMatrix()
    .replace(/^G5,([^,]+),/m, 'G5,NA,')
    .replace(/^G6,([^,]+),([^,]+),/m, 'G6,,,');
  const r = discoverTargets(req({ expression_matrix: m }));
  assert.equal(r.summary.input.missing_values, 3);
  assert.equal(r.summary.pipeline.missing_values.cells, 3);
  assert.match(r.summary.pipeline.missing_values.policy, /left out/);
  // G6 keeps one case sample: still estimable; every feature is tested.
  assert.equal(r.summary.features_tested, 30);
  const g5 = r.table.rows.find((x) => x[0] === 'G5')!;
  assert.ok(Number.isFinite(g5[6] as number));
});

test('base64 decoding: valid text passes, garbage is refused', () => {
  assert.equal(decodeBase64Text(Buffer.from('a,b\n1,2').toString('base64'), 'metadata'), 'a,b\n1,2');
  assert.throws(
    () => decodeBase64Text('@@not base64!!', 'expression_matrix'),
    (e: any) => e.code === 'bad_encoding' && e.field === 'expression_matrix',
  );
  const gz = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0xff, 0xfe]).toString('base64');
  assert.throws(
    () => decodeBase64Text(gz, 'metadata'),
    (e: any) => e.code === 'bad_encoding' && /binary/.test(e.message),
  );
});

test('bad inputs produce typed errors naming the problem', () => {
  rejects(
    req({ expression_matrix: 'gene,s1,s2\nG1,"unclosed,1\n' }),
    'unparsable_csv',
    'expression_matrix',
    /could not be parsed/,
  );
  rejects(
    req({ expression_matrix: logMatrix().replace('G3,', 'G3,1,') }),
    'unparsable_csv',
    'expression_matrix',
    /line 5 has 9 fields but the header has 8/,
  );
  rejects(req({ condition_column: 'disease' }), 'missing_column', 'condition_column', /no column "disease"/);
  rejects(req({ case_value: 'cancer' }), 'bad_group_values', 'case_value', /no sample has group = "cancer"/);
  rejects(req({ control_value: 'tumor' }), 'bad_group_values', 'control_value', /must differ/);
  rejects(
    req({
      metadata: 'sample,group\ns1,tumor\ns2,tumor\ns3,normal\ns4,normal\ns5,normal\n'.replace('s2,tumor', 's2,other'),
    }),
    'too_few_samples',
    'case_value',
    /at least two samples per group/,
  );
  rejects(req({ metadata: 'sample,group\nx1,tumor\nx2,normal\n' }), 'no_sample_overlap', 'metadata', /no sample id/);
  rejects(
    req({ expression_matrix: logMatrix().replace('G4,', 'G3,') }),
    'duplicate_ids',
    'expression_matrix',
    /feature id "G3"/,
  );
  rejects(
    req({ expression_matrix: logMatrix().replace('s2', 's1') }),
    'duplicate_ids',
    'expression_matrix',
    /sample id "s1"/,
  );
  rejects(req({ metadata: `${META}s1,normal,a\n` }), 'duplicate_ids', 'metadata', /"s1" more than once/);
  rejects(
    req({ expression_matrix: logMatrix().replace(/^G7,[^,]+,/m, 'G7,high,') }),
    'non_numeric',
    'expression_matrix',
    /"high" at line 9 \(row "G7", column "s1"\)/,
  );
  const counts = `gene,s1,s2,s3,s4,s5,s6\n${Array.from({ length: 20 }, (_, g) => `G${g},${g === 4 ? -3 : 100 + g},120,90,80,70,60`).join('\n')}`;
  rejects(req({ expression_matrix: counts }), 'negative_counts', 'expression_matrix', /negative value \(-3\)/);
  const sparse = `gene,s1,s2,s3,s4,s5,s6\nG1,1000,900,800,700,600,500\n${Array.from({ length: 20 }, (_, g) => `G${g + 2},0,0,1,0,0,0`).join('\n')}`;
  rejects(
    req({ expression_matrix: sparse }),
    'too_few_features',
    'expression_matrix',
    /only 1 feature\(s\) pass filterByExpr/,
  );
  rejects(
    req({ options: { covariates: ['site'] } }),
    'missing_column',
    'options.covariates',
    /no covariate column "site"/,
  );
  rejects(req({ options: { min_fold_change: 0.5 } }), 'bad_option', 'options.min_fold_change', />= 1/);
});

test('a covariate confounded with the condition is refused', () => {
  const meta = 'sample,group,site\ns1,tumor,x\ns2,tumor,x\ns3,tumor,x\ns4,normal,y\ns5,normal,y\ns6,normal,y\n';
  rejects(req({ metadata: meta, options: { covariates: ['site'] } }), 'bad_design', 'options.covariates', /confounded/);
});
