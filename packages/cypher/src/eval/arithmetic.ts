// Arithmetic and `+` over values: INTEGER overflow and division by zero caught, FLOAT as IEEE, temporal
// arithmetic, and list and string concatenation sized against the budgets before they copy.
import { type Budget, measure, remember } from '../budget.js';
import { CypherArithmeticError, CypherTypeError } from '../errors.js';
import { checkedInt } from '../functions.js';
import { temporalArithmetic } from '../temporal/operators.js';
import { type Value, typeName } from '../values.js';

const typeErr = (msg: string) => new CypherTypeError('InvalidArgumentType', msg);

export function arithmetic(op: string, a: Value, b: Value, budget: Budget): Value {
  if (a === null || b === null) return null;
  const temporal = temporalArithmetic(op, a, b);
  if (temporal !== undefined) return temporal;
  if (op === '+') {
    if (Array.isArray(a) || Array.isArray(b)) return concatLists(a, b, budget);
    if (typeof a === 'string' && (typeof b === 'string' || typeof b === 'bigint' || typeof b === 'number')) {
      return concatStrings(a, typeof b === 'number' ? formatNum(b) : String(b), budget);
    }
    if (typeof b === 'string' && (typeof a === 'bigint' || typeof a === 'number')) {
      return concatStrings(typeof a === 'number' ? formatNum(a) : String(a), b, budget);
    }
  }
  const na = typeof a === 'bigint' || typeof a === 'number';
  const nb = typeof b === 'bigint' || typeof b === 'number';
  if (!na || !nb) throw typeErr(`cannot apply ${op} to ${typeName(a)} and ${typeName(b)}`);
  if (op === '^') return Number(a) ** Number(b);
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    switch (op) {
      case '+':
        return checkedInt(a + b);
      case '-':
        return checkedInt(a - b);
      case '*':
        return checkedInt(a * b);
      case '/':
        if (b === 0n) throw new CypherArithmeticError('DivisionByZero', '/ by zero');
        return checkedInt(a / b);
      default:
        if (b === 0n) throw new CypherArithmeticError('DivisionByZero', '% by zero');
        return a % b;
    }
  }
  const x = Number(a);
  const y = Number(b);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return x / y;
    default:
      return x % y;
  }
}

/** `list + list`, `list + x`, `x + list`: sized from the operands' measures before the copy. */
function concatLists(a: Value, b: Value, budget: Budget): Value[] {
  const la = Array.isArray(a) ? a.length : 1;
  const lb = Array.isArray(b) ? b.length : 1;
  budget.list(la + lb, 'list concatenation (+)');
  const ma = measure(a);
  const mb = measure(b);
  const depth = Math.max(Array.isArray(a) ? ma.depth : ma.depth + 1, Array.isArray(b) ? mb.depth : mb.depth + 1);
  const bytes = ma.bytes + mb.bytes;
  budget.value(bytes, depth, 'list concatenation (+)');
  budget.tick(la + lb);
  const out = Array.isArray(a) ? (Array.isArray(b) ? [...a, ...b] : [...a, b]) : [a, ...(b as Value[])];
  return remember(out, bytes, depth);
}

/** A string grown past max_string_length is refused; one no longer than its longest part is not grown. */
function concatStrings(a: string, b: string, budget: Budget): string {
  const length = a.length + b.length;
  if (length > budget.maxStringLength && b.length > 0 && a.length > 0)
    budget.string(length, 'string concatenation (+)');
  return a + b;
}

function formatNum(v: number): string {
  return Number.isInteger(v) && Math.abs(v) < 1e7 ? `${v}.0` : String(v);
}
