// Turns the parsed matrix and metadata into an analysable dataset: orientation, sample matching by id,
// exclusions with reasons, group labels and covariates. All the "bad input" checks live here.
import { TargetDiscoveryInputError } from '../errors.js';
import type { Matrix } from '../stats/matrix.js';
import type { RawTable } from '../parse/matrix.js';
import { firstDuplicate, metadataValue, type Metadata } from '../parse/metadata.js';

export interface GroupSpec {
  conditionColumn: string;
  caseValue: string;
  controlValue: string;
  covariates?: string[];
}

export interface ExcludedSample {
  sample_id: string;
  reason: string;
}

export interface Covariate {
  name: string;
  kind: 'numeric' | 'factor';
  /** For factors, the levels in order (first = reference). */
  levels?: string[];
  values: string[];
}

export interface Dataset {
  featureIds: string[];
  sampleIds: string[];
  /** 1 = case, 0 = control, aligned with sampleIds. */
  isCase: Uint8Array;
  values: Matrix;
  covariates: Covariate[];
  excluded: ExcludedSample[];
  orientation: 'features_in_rows' | 'samples_in_rows';
  missingValues: number;
}

/** The condition column's values, once the column exists and both group values are distinct and present. */
function checkGroups(meta: Metadata, spec: GroupSpec): string[] {
  const { conditionColumn, caseValue, controlValue } = spec;
  if (!meta.values.has(conditionColumn)) {
    throw new TargetDiscoveryInputError(
      'missing_column',
      'condition_column',
      `metadata has no column "${conditionColumn}" (columns: ${meta.columns.join(', ')})`,
    );
  }
  if (caseValue === controlValue) {
    throw new TargetDiscoveryInputError(
      'bad_group_values',
      'control_value',
      `case_value and control_value are both "${caseValue}"; they must differ`,
    );
  }
  const cond = meta.values.get(conditionColumn)!;
  const present = new Set(cond);
  if (!present.has(caseValue))
    throw new TargetDiscoveryInputError(
      'bad_group_values',
      'case_value',
      `no sample has ${conditionColumn} = "${caseValue}" (values: ${[...present].slice(0, 10).join(', ')})`,
    );
  if (!present.has(controlValue))
    throw new TargetDiscoveryInputError(
      'bad_group_values',
      'control_value',
      `no sample has ${conditionColumn} = "${controlValue}" (values: ${[...present].slice(0, 10).join(', ')})`,
    );
  return cond;
}

/** Every covariate is a metadata column other than the condition column. */
function checkCovariates(meta: Metadata, covNames: string[], conditionColumn: string): void {
  for (const c of covNames) {
    if (!meta.values.has(c))
      throw new TargetDiscoveryInputError(
        'missing_column',
        'options.covariates',
        `metadata has no covariate column "${c}"`,
      );
    if (c === conditionColumn)
      throw new TargetDiscoveryInputError(
        'bad_design',
        'options.covariates',
        `covariate "${c}" is the condition column`,
      );
  }
}

export function buildDataset(raw: RawTable, meta: Metadata, spec: GroupSpec): Dataset {
  const { conditionColumn, caseValue, controlValue } = spec;
  const cond = checkGroups(meta, spec);

  // Orientation: the ids that name metadata samples tell which way round the matrix is.
  const metaIds = new Set(meta.sampleIds);
  const colHits = raw.colIds.filter((id) => metaIds.has(id)).length;
  const rowHits = raw.rowIds.filter((id) => metaIds.has(id)).length;
  const transposed = rowHits > colHits;
  const featureIds = transposed ? raw.colIds : raw.rowIds;
  const matrixSamples = transposed ? raw.rowIds : raw.colIds;
  if (Math.max(colHits, rowHits) === 0) {
    throw new TargetDiscoveryInputError(
      'no_sample_overlap',
      'metadata',
      `no sample id of the expression matrix appears in the metadata's "${meta.idColumn}" column (matrix: ${matrixSamples.slice(0, 5).join(', ')}...; metadata: ${meta.sampleIds.slice(0, 5).join(', ')}...)`,
    );
  }
  for (const [what, ids] of [
    ['feature', featureIds],
    ['sample', matrixSamples],
  ] as const) {
    const dup = firstDuplicate(ids);
    if (dup !== undefined)
      throw new TargetDiscoveryInputError(
        'duplicate_ids',
        'expression_matrix',
        `${what} id "${dup}" appears more than once in the expression matrix`,
      );
  }

  const metaIndex = new Map(meta.sampleIds.map((id, i) => [id, i]));
  const covNames = spec.covariates ?? [];
  checkCovariates(meta, covNames, conditionColumn);
  const excluded: ExcludedSample[] = [];
  const keptIdx: number[] = [];
  const kept: Array<{ id: string; metaRow: number }> = [];
  const isCaseList: number[] = [];
  matrixSamples.forEach((id, k) => {
    const mi = metaIndex.get(id);
    if (mi === undefined) {
      excluded.push({ sample_id: id, reason: 'not in metadata' });
      return;
    }
    const v = cond[mi];
    if (v !== caseValue && v !== controlValue) {
      excluded.push({
        sample_id: id,
        reason:
          v === '' || v === 'NA'
            ? `${conditionColumn} is missing`
            : `${conditionColumn} is "${v}" (neither case nor control)`,
      });
      return;
    }
    const badCov = covNames.find((c) => {
      const cv = meta.values.get(c)![mi];
      return cv === '' || cv === 'NA';
    });
    if (badCov) {
      excluded.push({ sample_id: id, reason: `covariate ${badCov} is missing` });
      return;
    }
    keptIdx.push(k);
    kept.push({ id, metaRow: mi });
    isCaseList.push(v === caseValue ? 1 : 0);
  });
  const inMatrix = new Set(matrixSamples);
  for (const id of meta.sampleIds)
    if (!inMatrix.has(id)) excluded.push({ sample_id: id, reason: 'not in expression matrix' });
  const nCase = isCaseList.filter((x) => x === 1).length;
  const nControl = isCaseList.length - nCase;
  if (nCase < 2 || nControl < 2) {
    const which = nCase < 2 ? 'case_value' : 'control_value';
    throw new TargetDiscoveryInputError(
      'too_few_samples',
      which,
      `need at least two samples per group in the expression matrix; found ${nCase} case ("${caseValue}") and ${nControl} control ("${controlValue}")`,
    );
  }

  // Values: features x kept samples.
  const G = featureIds.length;
  const n = keptIdx.length;
  const nc = raw.colIds.length;
  // When every column is kept in order the parsed buffer is used as is (large inputs: no second copy).
  const identity = !transposed && n === nc && keptIdx.every((k, j) => k === j);
  const data = identity ? raw.values : new Float64Array(G * n);
  let missing = 0;
  for (let g = 0; g < G; g++) {
    for (let j = 0; j < n; j++) {
      const k = keptIdx[j]!;
      const v = transposed ? raw.values[k * nc + g]! : raw.values[g * nc + k]!;
      if (Number.isNaN(v)) missing++;
      if (!identity) data[g * n + j] = v;
    }
  }
  const sampleIds = kept.map((s) => s.id);
  const covariates: Covariate[] = covNames.map((name) => {
    const vals = kept.map((s) => metadataValue(meta, name, s.metaRow, 'options.covariates'));
    const numeric = vals.every((v) => v !== '' && Number.isFinite(Number(v)));
    if (numeric) return { name, kind: 'numeric', values: vals };
    const levels = [...new Set(vals)].sort();
    return { name, kind: 'factor', levels, values: vals };
  });
  return {
    featureIds,
    sampleIds,
    isCase: Uint8Array.from(isCaseList),
    values: { nrow: G, ncol: n, data },
    covariates,
    excluded,
    orientation: transposed ? 'samples_in_rows' : 'features_in_rows',
    missingValues: missing,
  };
}
