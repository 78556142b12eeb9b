// Transforms: a component's raw value mapped to a score, usually in [0, 1]. REINVENT 4's, with its formulas and
// parameter names (reinvent/scoring/transforms/: sigmoids.py, sigmoid_functions.py, double_sigmoid.py, steps.py,
// exponential_decay.py, value_mapping.py), and GuacaMol's score modifiers (guacamol/score_modifier.py) under
// names of their own, which REINVENT 4 does not know. REINVENT computes its sigmoids in float32; these use
// float64, so values agree to about 1e-7.
import type { RawValue } from './external/protocol.js';
import { ParamReader, type Problems, shown } from './params.js';

export type Transform = (x: RawValue) => number;

/** 10^(k x) sigmoid, 1 / (1 + 10^(−k x)): REINVENT's stable_sigmoid with base 10, split by sign for stability. */
function sigmoid10(x: number, k: number): number {
  const h = k * x * Math.LN10;
  return h >= 0 ? 1 / (1 + Math.exp(-h)) : Math.exp(h) / (1 + Math.exp(h));
}

const hardSigmoid = (x: number, k: number) => (k * x > 0 ? 1 : 0);

const num = (x: RawValue): number => (typeof x === 'number' ? x : Number.NaN);

interface TransformDef {
  /** The name written in files (REINVENT's where it has one). */
  name: string;
  params: readonly string[];
  build(p: ParamReader): Transform;
}

/** REINVENT's sigmoid: centred between low and high, steepness 10 k / (high − low) in base 10. */
function sigmoid(p: ParamReader, reverse: boolean): Transform {
  const low = p.number('low');
  const high = p.number('high');
  const k = p.number('k');
  const mid = (high + low) / 2;
  const f =
    high - low === 0
      ? (v: number) => hardSigmoid(v - mid, 10 * k)
      : (v: number) => sigmoid10(v - mid, (10 * k) / (high - low));
  return reverse ? (x) => 1 - f(num(x)) : (x) => f(num(x));
}

const TRANSFORMS: readonly TransformDef[] = [
  { name: 'sigmoid', params: ['low', 'high', 'k'], build: (p) => sigmoid(p, false) },
  { name: 'reverse_sigmoid', params: ['low', 'high', 'k'], build: (p) => sigmoid(p, true) },
  {
    // Rising sigmoid at low, falling one at high, switching at the midpoint; steepness coef_si / coef_div on the
    // left and coef_se / coef_div on the right (a step at low and high when coef_div is 0).
    name: 'double_sigmoid',
    params: ['low', 'high', 'coef_div', 'coef_si', 'coef_se'],
    build(p) {
      const low = p.number('low');
      const high = p.number('high');
      const div = p.number('coef_div', { default: 100 });
      const si = p.number('coef_si', { default: 150 });
      const se = p.number('coef_se', { default: 150 });
      const centre = (high - low) / 2 + low;
      return (raw) => {
        const x = num(raw);
        if (Number.isNaN(x)) return Number.NaN;
        if (x < centre) return div === 0 ? hardSigmoid(x - low, si) : sigmoid10(x - low, si / div);
        return 1 - (div === 0 ? hardSigmoid(x - high, se) : sigmoid10(x - high, se / div));
      };
    },
  },
  {
    name: 'step',
    params: ['low', 'high'],
    build(p) {
      const low = p.number('low', { default: 0 });
      const high = p.number('high', { default: 0 });
      return (x) => (low <= num(x) && num(x) <= high ? 1 : 0);
    },
  },
  {
    name: 'left_step',
    params: ['low', 'high'],
    build(p) {
      const low = p.number('low', { default: 0 });
      p.number('high', { default: 0 });
      return (x) => (num(x) <= low ? 1 : 0);
    },
  },
  {
    name: 'right_step',
    params: ['low', 'high'],
    build(p) {
      p.number('low', { default: 0 });
      const high = p.number('high', { default: 0 });
      return (x) => (num(x) >= high ? 1 : 0);
    },
  },
  {
    name: 'exponential_decay',
    params: ['k'],
    build(p) {
      const k = p.number('k', { above: 0 });
      return (raw) => {
        const x = num(raw);
        return x < 0 ? 1 : Math.exp(-k * x);
      };
    },
  },
  {
    // Categories to scores; a value missing from the mapping is NaN (left out of the mean, as in REINVENT). A
    // number matches a key that reads as the same number ("1", "1.0").
    name: 'value_mapping',
    params: ['mapping'],
    build(p) {
      const table = p.record('mapping');
      const byText = new Map<string, number>();
      const byNumber = new Map<number, number>();
      for (const [key, v] of Object.entries(table?.value ?? {})) {
        if (typeof v !== 'number' || !Number.isFinite(v)) {
          p.problem('mapping', `the score for "${key}" must be a number (got ${shown(v)})`);
          continue;
        }
        byText.set(key, v);
        if (key.trim() !== '' && Number.isFinite(Number(key))) byNumber.set(Number(key), v);
      }
      return (x) => {
        if (x === null) return Number.NaN;
        if (typeof x === 'number') return byNumber.get(x) ?? byText.get(String(x)) ?? Number.NaN;
        return byText.get(x) ?? Number.NaN;
      };
    },
  },
  {
    // GuacaMol's GaussianModifier: exp(−½ ((x − mu) / sigma)²).
    name: 'gaussian',
    params: ['mu', 'sigma'],
    build(p) {
      const mu = p.number('mu');
      const sigma = p.number('sigma', { above: 0 });
      return (x) => gaussian(num(x), mu, sigma);
    },
  },
  {
    // Deliberate likeness: min_gaussian and max_gaussian are one table entry each, mirror images.
    // GuacaMol's MinGaussianModifier: 1 at or below mu, the Gaussian's right half above it.
    name: 'min_gaussian',
    params: ['mu', 'sigma'],
    build(p) {
      const mu = p.number('mu');
      const sigma = p.number('sigma', { above: 0 });
      return (x) => gaussian(Math.max(num(x), mu), mu, sigma);
    },
  },
  {
    // Deliberate likeness: the mirror image of min_gaussian above.
    // GuacaMol's MaxGaussianModifier: 1 at or above mu, the Gaussian's left half below it.
    name: 'max_gaussian',
    params: ['mu', 'sigma'],
    build(p) {
      const mu = p.number('mu');
      const sigma = p.number('sigma', { above: 0 });
      return (x) => gaussian(Math.min(num(x), mu), mu, sigma);
    },
  },
  {
    // GuacaMol's ClippedScoreModifier: the line through (lower_x, low_score) and (upper_x, high_score), clipped
    // to [low_score, high_score] (falling when upper_x < lower_x).
    name: 'clipped',
    params: ['upper_x', 'lower_x', 'high_score', 'low_score'],
    build(p) {
      const upper = p.number('upper_x');
      const lower = p.number('lower_x', { default: 0 });
      const hi = p.number('high_score', { default: 1 });
      const lo = p.number('low_score', { default: 0 });
      if (!(lo < hi)) p.problem('low_score', `must be below high_score (${lo} >= ${hi})`);
      if (upper === lower) p.problem('upper_x', 'must differ from lower_x');
      const slope = (hi - lo) / (upper - lower);
      const intercept = hi - slope * upper;
      return (raw) => {
        const x = num(raw);
        if (Number.isNaN(x)) return Number.NaN;
        return Math.min(hi, Math.max(lo, slope * x + intercept));
      };
    },
  },
];

function gaussian(x: number, mu: number, sigma: number): number {
  return Math.exp(-0.5 * ((x - mu) / sigma) ** 2);
}

/** REINVENT's lookup key: lower case, without '_' and '-'. */
export const lookupKey = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

const BY_KEY = new Map(TRANSFORMS.map((t) => [lookupKey(t.name), t]));

export const TRANSFORM_NAMES: readonly string[] = TRANSFORMS.map((t) => t.name);

/** Builds the transform a `transform` table describes (its `type` and parameters), collecting problems. */
export function buildTransform(
  table: Record<string, unknown>,
  path: string,
  problems: Problems,
): { transform: Transform; type: string } | undefined {
  const type = table.type;
  if (typeof type !== 'string') {
    problems.push({
      path: `${path}/type`,
      message: `a transform type is required (one of ${TRANSFORM_NAMES.join(', ')})`,
    });
    return undefined;
  }
  const def = BY_KEY.get(lookupKey(type));
  if (!def) {
    problems.push({
      path: `${path}/type`,
      message: `unknown transform "${type}" (supported: ${TRANSFORM_NAMES.join(', ')})`,
    });
    return undefined;
  }
  const reader = ParamReader.of(table, path, problems, ['type']);
  const transform = def.build(reader);
  reader.finish(`transform ${def.name}`, def.params);
  return { transform, type: def.name };
}
