// What the expression evaluator asks of temporal values: `value.component` and the arithmetic operators
// (temporal ± duration, duration ± duration, duration * number, number * duration, duration / number).
import type { Value } from '../values.js';
import { durationComponent, temporalComponent } from './accessors.js';
import { addDuration, addDurations, scaleDuration } from './duration.js';
import { DurationValue, TemporalValue } from './values.js';

/** A component of a temporal value or duration; undefined when `target` is neither. */
export function temporalProperty(target: Value, key: string): Value | undefined {
  if (target instanceof TemporalValue) return temporalComponent(target, key);
  if (target instanceof DurationValue) return durationComponent(target, key);
  return undefined;
}

const isNumber = (v: Value): v is number | bigint => typeof v === 'number' || typeof v === 'bigint';

/** `a op b` when it is temporal arithmetic; undefined otherwise (the caller's rules apply). */
export function temporalArithmetic(op: string, a: Value, b: Value): Value | undefined {
  if (b instanceof DurationValue) {
    if (a instanceof TemporalValue && (op === '+' || op === '-')) return addDuration(a, b, op === '+' ? 1 : -1);
    if (a instanceof DurationValue && (op === '+' || op === '-')) return addDurations(a, b, op === '+' ? 1 : -1);
    if (isNumber(a) && op === '*') return scaleDuration(b, a, false);
  }
  if (a instanceof DurationValue) {
    if (b instanceof TemporalValue && op === '+') return addDuration(b, a, 1);
    if (isNumber(b) && (op === '*' || op === '/')) return scaleDuration(a, b, op === '/');
  }
  return undefined;
}
