// The design matrix: intercept, the case-vs-control indicator (the tested coefficient) and additive
// covariates (numeric as is, factors treatment-coded against their first level), as model.matrix builds it.
import { TargetDiscoveryInputError } from '../errors.js';
import type { Design } from '../stats/lmfit.js';
import { householder } from '../stats/qr.js';
import type { Dataset } from './dataset.js';

export interface DesignInfo {
  design: Design;
  /** e.g. "~ condition + batch" */
  formula: string;
  /** Index of the tested coefficient. */
  coefficient: number;
}

export function buildDesign(ds: Dataset, conditionColumn: string, caseValue: string, controlValue: string): DesignInfo {
  const n = ds.sampleIds.length;
  const cols: Float64Array[] = [];
  const names: string[] = [];
  cols.push(new Float64Array(n).fill(1));
  names.push('(Intercept)');
  cols.push(Float64Array.from(ds.isCase));
  names.push(`${conditionColumn}: ${caseValue} vs ${controlValue}`);
  for (const cov of ds.covariates) {
    if (cov.kind === 'numeric') {
      cols.push(Float64Array.from(cov.values, Number));
      names.push(cov.name);
    } else {
      for (const level of cov.levels!.slice(1)) {
        cols.push(Float64Array.from(cov.values, (v) => (v === level ? 1 : 0)));
        names.push(`${cov.name}${level}`);
      }
    }
  }
  const p = cols.length;
  const x = new Float64Array(n * p);
  cols.forEach((c, k) => {
    x.set(c, k * n);
  });
  if (n <= p) {
    throw new TargetDiscoveryInputError(
      'too_few_samples',
      'options.covariates',
      `${n} samples cannot fit ${p} coefficients (${names.join(', ')}) with residual degrees of freedom left; use fewer covariates`,
    );
  }
  if (!householder(Float64Array.from(x), n, p, new Float64Array(p), new Float64Array(p))) {
    throw new TargetDiscoveryInputError(
      'bad_design',
      'options.covariates',
      `the covariates (${ds.covariates.map((c) => c.name).join(', ')}) are confounded with the condition or each other; the design is not of full rank`,
    );
  }
  const formula = [`~ ${conditionColumn}`, ...ds.covariates.map((c) => c.name)].join(' + ');
  return { design: { n, p, x, columns: names }, formula, coefficient: 1 };
}
