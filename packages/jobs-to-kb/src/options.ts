// The export's options: checked before anything is read, every problem named by its JSON pointer.
import type { Problem } from '@evident/contract';
import { invalidOptions } from './errors.js';

/**
 * The entity type of a discovery job's case condition. A job compares the samples whose condition column holds the
 * case value with those holding the control value: a sample group ('tumor', 'treated', 'knockout'), which is a
 * `condition` unless the caller says it is a disease or a phenotype.
 */
// Deliberate likeness: a literal union and its list, alike in shape only to kb-core's SearchMode.
export type ConditionType = 'condition' | 'disease' | 'phenotype';
export const CONDITION_TYPES: readonly ConditionType[] = ['condition', 'disease', 'phenotype'];

export interface ExportOptions {
  /** Discovery jobs: only targets whose priority_score (0..100) is at least this. */
  min_priority?: number;
  /** At most this many findings: the first N targets by rank, or the first N molecules by rank. */
  top?: number;
  /** Discovery jobs: the condition's name in the KB (default: the job's case value, e.g. 'tumor'). */
  condition?: string;
  /** Discovery jobs: the condition's entity type (default 'condition'). */
  condition_type?: ConditionType;
}

export interface ResolvedOptions {
  min_priority: number | undefined;
  top: number | undefined;
  condition: string | undefined;
  condition_type: ConditionType;
}

export function resolveOptions(o: ExportOptions = {}): ResolvedOptions {
  const problems: Problem[] = [];
  if (o === null || typeof o !== 'object') throw invalidOptions([{ path: '', message: 'must be an object' }]);
  const { min_priority, top, condition, condition_type } = o;
  if (min_priority !== undefined && !(typeof min_priority === 'number' && min_priority >= 0 && min_priority <= 100))
    problems.push({ path: '/min_priority', message: 'must be a number from 0 to 100 (priority_score is 0..100)' });
  if (top !== undefined && !(Number.isInteger(top) && top >= 1))
    problems.push({ path: '/top', message: 'must be an integer >= 1' });
  if (
    condition !== undefined &&
    !(typeof condition === 'string' && condition.trim() !== '' && condition.length <= 1000)
  )
    problems.push({ path: '/condition', message: 'must be a non-empty string of at most 1000 characters' });
  if (condition_type !== undefined && !CONDITION_TYPES.includes(condition_type))
    problems.push({ path: '/condition_type', message: `must be one of ${CONDITION_TYPES.join(', ')}` });
  if (problems.length) throw invalidOptions(problems);
  return { min_priority, top, condition, condition_type: condition_type ?? 'condition' };
}
