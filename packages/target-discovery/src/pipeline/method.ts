// Which differential-expression method runs, and why: the caller's options.method, or (auto) the pipeline the
// data type calls for. DESeq2, edgeR and voom model counts, so they refuse values that are not non-negative integers.
import { TargetDiscoveryInputError } from '../errors.js';
import type { Matrix } from '../stats/matrix.js';
import type { DataType, DataTypeEvidence } from './detect.js';

export const DE_METHODS = ['auto', 'limma', 'limma-trend', 'voom', 'deseq2', 'edger-ql'] as const;
export type DeMethod = (typeof DE_METHODS)[number];
export type ResolvedMethod = Exclude<DeMethod, 'auto'>;

export interface MethodChoice {
  method: ResolvedMethod;
  /** Human-readable reason: the request, or the detected data type. */
  reason: string;
  dataType: DataType;
  detection: DataTypeEvidence;
}

const BY_TYPE: Record<DataType, ResolvedMethod> = {
  counts: 'voom',
  log_expression: 'limma',
  non_log_expression: 'limma-trend',
};

const TYPE_OF: Record<ResolvedMethod, DataType> = {
  limma: 'log_expression',
  'limma-trend': 'non_log_expression',
  voom: 'counts',
  deseq2: 'counts',
  'edger-ql': 'counts',
};

/** `detect` runs after a named count method has checked the values, so its refusal names options.method. */
export function chooseMethod(
  requested: DeMethod | undefined,
  detect: () => DataTypeEvidence,
  forcedType: DataType | undefined,
  values: Matrix,
): MethodChoice {
  const method = requested ?? 'auto';
  if (!(DE_METHODS as readonly string[]).includes(method))
    throw new TargetDiscoveryInputError(
      'bad_option',
      'options.method',
      `method must be one of ${DE_METHODS.join(', ')} (got ${JSON.stringify(method)})`,
    );
  if (method === 'auto') {
    const detection = detect();
    const dataType = forcedType ?? detection.data_type;
    const why = forcedType
      ? `data_type was given as ${forcedType}`
      : `the values look like ${dataType.replace(/_/g, ' ')} (min ${detection.min}, max ${detection.max}, ${
          detection.all_integer ? 'all integers' : 'not all integers'
        }, 99th percentile ${detection.q99})`;
    return { method: BY_TYPE[dataType], dataType, detection, reason: `auto: ${why}, so ${BY_TYPE[dataType]}` };
  }
  if (method === 'deseq2' || method === 'edger-ql' || method === 'voom') assertCounts(values, method);
  return { method, dataType: TYPE_OF[method], detection: detect(), reason: `requested: options.method = ${method}` };
}

/** Counts: every observed value a non-negative integer. */
function assertCounts(m: Matrix, method: string): void {
  const d = m.data;
  for (let i = 0; i < d.length; i++) {
    const v = d[i]!;
    if (Number.isNaN(v)) continue;
    if (v < 0 || !Number.isInteger(v)) {
      const row = Math.floor(i / m.ncol);
      throw new TargetDiscoveryInputError(
        'bad_option',
        'options.method',
        `${method} models raw counts, but the expression matrix holds ${v < 0 ? 'a negative' : 'a fractional'} value (${v}, feature row ${row + 1}); use limma or limma-trend for normalised or log-scale data`,
      );
    }
  }
}
