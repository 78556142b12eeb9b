// The 'td' job kind driven directly: schema, prepare (validation -> JSON-pointer problems), run, CSV, targets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { syntheticStudy } from '@evident/target-discovery';
import { tdKind, type TdInput } from '../../src/kinds/td/index.js';
import { EvidentError } from '@evident/contract';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const study = syntheticStudy();
const body = {
  expression_matrix: b64(study.countsCsv),
  metadata: b64(study.metadataCsv),
  condition_column: 'condition',
  case_value: 'tumor',
  control_value: 'normal',
  options: { include_druggability: true, min_fold_change: 1.5, max_pvalue: 0.05, covariates: ['batch'] },
};

test('request schema: the seed body validates; unknown fields are refused', () => {
  const check = TypeCompiler.Compile(tdKind.requestSchema);
  assert.equal(tdKind.id, 'td');
  assert.equal(tdKind.route, '/v1/targets/discover');
  assert.ok(check.Check(body));
  assert.ok(check.Check({ ...body, callback_url: 'https://example.org/hook', options: { pvalue_type: 'raw' } }));
  assert.equal(check.Check({ ...body, extra: 1 }), false);
  assert.equal(check.Check({ ...body, options: { ...body.options, fdr: 0.1 } }), false);
  assert.equal(check.Check({ ...body, options: { max_pvalue: 0 } }), false);
  assert.equal(check.Check({ ...body, options: { pvalue_type: 'bonferroni' } }), false);
  assert.ok(check.Check({ ...body, options: { method: 'deseq2' } }));
  assert.ok(check.Check({ ...body, options: { method: 'edger-ql' } }));
  assert.equal(check.Check({ ...body, options: { method: 'bayes' } }), false);
  const { condition_column: _, ...missing } = body;
  assert.equal(check.Check(missing), false);
});

function problems(fn: () => unknown): Array<{ path: string; message: string }> {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof EvidentError, String(e));
    assert.equal(e.status, 400);
    return [...(e.problems ?? [])];
  }
  assert.fail('expected an EvidentError');
}

test('prepare maps bad input to JSON-pointer problems', () => {
  assert.equal(problems(() => tdKind.prepare({ ...body, expression_matrix: '%%%' }))[0]!.path, '/expression_matrix');
  assert.equal(problems(() => tdKind.prepare({ ...body, metadata: b64('\u0000\u0001') }))[0]!.path, '/metadata');
  const p1 = problems(() => tdKind.prepare({ ...body, condition_column: 'disease' }));
  assert.deepEqual(
    p1.map((p) => p.path),
    ['/condition_column'],
  );
  assert.match(p1[0]!.message, /no column "disease"/);
  assert.equal(problems(() => tdKind.prepare({ ...body, case_value: 'cancer' }))[0]!.path, '/case_value');
  assert.equal(problems(() => tdKind.prepare({ ...body, control_value: 'tumor' }))[0]!.path, '/control_value');
  assert.equal(
    problems(() => tdKind.prepare({ ...body, options: { covariates: ['site'] } }))[0]!.path,
    '/options/covariates',
  );
  const neg = study.countsCsv.replace(/^(EGFR,)\d+/m, '$1-5');
  const pn = problems(() => tdKind.prepare({ ...body, expression_matrix: b64(neg) }));
  assert.equal(pn[0]!.path, '/expression_matrix');
  assert.match(pn[0]!.message, /negative/);
  // A count model on data that are not counts: 400 naming /options/method and saying why.
  const frac = study.countsCsv.replace(/^(EGFR,)\d+/m, '$13.5');
  const pm = problems(() => tdKind.prepare({ ...body, expression_matrix: b64(frac), options: { method: 'deseq2' } }));
  assert.equal(pm[0]!.path, '/options/method');
  assert.match(pm[0]!.message, /deseq2 models raw counts.*fractional/);
  const pmn = problems(() => tdKind.prepare({ ...body, expression_matrix: b64(neg), options: { method: 'deseq2' } }));
  assert.equal(pmn[0]!.path, '/options/method');
  assert.match(pmn[0]!.message, /negative/);
});

test('options.method deseq2 runs DESeq2 and the results say so', async () => {
  const input = tdKind.prepare({ ...body, options: { ...body.options, method: 'deseq2' } }) as TdInput;
  assert.equal(input.request.options?.method, 'deseq2');
  assert.equal(input.shape.method, 'deseq2');
  const result = await tdKind.run(input, { progress: () => {}, signal: new AbortController().signal });
  assert.equal(result.summary.pipeline.method, 'deseq2');
  assert.equal(result.summary.pipeline.statistic, 'wald_z');
  assert.match(result.summary.pipeline.method_reason, /options\.method = deseq2/);
  assert.ok(
    result.targets.some((t) => t.feature_id === 'EGFR'),
    'the planted EGFR change is found',
  );
});

test('prepare stores decoded, resolved input; estimate is a sane range', () => {
  const input = tdKind.prepare(body) as TdInput;
  assert.equal(input.shape.data_type, 'counts');
  assert.equal(input.shape.samples, 12);
  assert.equal(input.request.options?.pvalue_type, 'adjusted');
  assert.ok(JSON.parse(JSON.stringify(input)).request.expression_matrix.startsWith('gene,'));
  const [lo, hi] = tdKind.estimateSeconds(input);
  assert.ok(lo > 0 && lo < hi && hi < 30, `${lo}..${hi}`);
});

test('run: planted genes recovered, progress reported, CSV has every tested feature', async () => {
  const input = tdKind.prepare(body) as TdInput;
  const seen: number[] = [];
  const result = await tdKind.run(input, { progress: (_s, p) => seen.push(p), signal: new AbortController().signal });
  assert.ok(seen.length > 3 && seen.at(-1) === 100);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! >= seen[i - 1]!);
  const s = result.summary;
  assert.equal(s.pipeline.name, 'limma-voom');
  const found = new Set(result.targets.map((t) => t.gene_symbol));
  const recovered = study.planted.filter((p) => found.has(p.symbol)).length;
  assert.ok(recovered >= 0.9 * study.planted.length, `${recovered}/${study.planted.length}`);
  assert.ok(result.plots.volcano_svg.startsWith('<svg'));

  const csv = tdKind.toCsv(result).trim().split('\n');
  assert.equal(
    csv[0],
    'feature_id,gene_symbol,log2_fold_change,fold_change,average_expression,t,p_value,adjusted_p_value,b,direction,significant',
  );
  assert.equal(csv.length - 1, s.features_tested);
  const egfr = csv.find((l) => l.startsWith('EGFR,'))!.split(',');
  assert.equal(egfr[10], 'true');

  const targets = tdKind.targetsOf!(result);
  assert.equal(targets.length, s.significant);
  assert.equal(targets[0]!.rank, 1);
  assert.ok('uniprot' in targets[0]! && 'priority_score' in targets[0]!);
});

test('run honours an aborted signal', async () => {
  const input = tdKind.prepare(body) as TdInput;
  const ac = new AbortController();
  ac.abort(new Error('cancelled'));
  await assert.rejects(tdKind.run(input, { progress: () => {}, signal: ac.signal }), /cancelled/);
});

test('feature annotation options: schema, base64 decoding, problems at /options/feature_annotation and /options/annotation_columns', () => {
  const check = TypeCompiler.Compile(tdKind.requestSchema);
  const ann =
    'gene_id,symbol\n' +
    study.countsCsv
      .trim()
      .split('\n')
      .slice(1, 50)
      .map((l) => `${l.split(',')[0]},${l.split(',')[0]}`)
      .join('\n');
  const withAnn = {
    ...body,
    options: { ...body.options, feature_annotation: b64(ann), collapse: 'max_mean' as const },
  };
  assert.ok(check.Check(withAnn));
  assert.ok(check.Check({ ...body, options: { annotation_columns: ['symbol'], collapse: 'none' } }));
  assert.equal(check.Check({ ...body, options: { collapse: 'mean' } }), false);
  assert.equal(check.Check({ ...body, options: { annotation_columns: [] } }), false);
  const input = tdKind.prepare(withAnn) as TdInput;
  assert.equal(input.request.options?.feature_annotation, ann); // decoded, stored for a retry
  assert.equal(input.request.options?.collapse, 'max_mean');
  assert.equal(
    problems(() => tdKind.prepare({ ...body, options: { feature_annotation: '%%%' } }))[0]!.path,
    '/options/feature_annotation',
  );
  const noOverlap = problems(() =>
    tdKind.prepare({ ...body, options: { feature_annotation: b64('probe,symbol\nx1,EGFR\n') } }),
  );
  assert.equal(noOverlap[0]!.path, '/options/feature_annotation');
  const badColumn = problems(() => tdKind.prepare({ ...body, options: { annotation_columns: ['hgnc_symbol'] } }));
  assert.equal(badColumn[0]!.path, '/options/annotation_columns');
  assert.match(badColumn[0]!.message, /no column "hgnc_symbol"/);
});
