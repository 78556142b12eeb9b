// `text =~ pattern` on RE2 (re2js, a pure-JavaScript port of RE2: no backtracking, so matching time is linear
// in the text whatever the pattern). A backtracking engine (JavaScript's RegExp, Java's java.util.regex) takes
// exponential time on patterns such as `(a+)+$`, and the user writes the pattern. RE2 refuses what it cannot
// run in linear time (backreferences, lookaround, possessive quantifiers, atomic groups): those get an error
// naming the construct. re2js compiles slowly (tens of microseconds per program instruction) and a match costs
// up to instructions × characters, neither of which a deadline can interrupt, so both are bounded up front.
import { RE2JS, RE2JSException } from 're2js';
import { CypherArgumentError, CypherLimitError } from './errors.js';

/** A pattern whose program would be larger than this (estimated from its text) is refused before compiling. */
export const MAX_REGEX_SIZE = 10_000;
/** A match may cost at most this many program instructions × text characters (about 0.3 s at worst). */
export const MAX_REGEX_WORK = 100_000_000;

// Compiled patterns, most recently used last: a query applies one pattern to many rows.
const CACHE_SIZE = 32;
const cache = new Map<string, RE2JS>();

/** Whether all of `text` matches `pattern` (Cypher's `=~` is a whole-string match). */
export function regexMatches(text: string, pattern: string): boolean {
  const re = compiled(pattern);
  const size = re.re2Input.prog.numInst() as number;
  if (size * text.length > MAX_REGEX_WORK) {
    throw new CypherLimitError(
      'cypher_regex_too_large',
      'max_regex_work',
      MAX_REGEX_WORK,
      `=~: a pattern of ${size} steps over a text of ${text.length} characters is more than max_regex_work ` +
        `${MAX_REGEX_WORK} (steps × characters); use a simpler pattern or a shorter text`,
    );
  }
  return re.matches(text);
}

function compiled(pattern: string): RE2JS {
  const hit = cache.get(pattern);
  if (hit) {
    cache.delete(pattern);
    cache.set(pattern, hit);
    return hit;
  }
  const size = estimateSize(pattern);
  if (size > MAX_REGEX_SIZE) {
    throw new CypherLimitError(
      'cypher_regex_too_large',
      'max_regex_size',
      MAX_REGEX_SIZE,
      `=~: the pattern expands to about ${size} steps, more than max_regex_size ${MAX_REGEX_SIZE}; use smaller repetition counts`,
    );
  }
  const intersection = classIntersection(pattern);
  if (intersection) throw unsupported(pattern, `character class intersection: \`${intersection}\``);
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    if (e instanceof RE2JSException) throw unsupported(pattern, e.message);
    throw e;
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(pattern, re);
  return re;
}

// RE2's parse errors for what Java has and RE2 leaves out, with the construct's name.
const MISSING: [RegExp, string][] = [
  [/escape sequence: `\\([1-9]|k)/, 'backreferences'],
  [/^character class intersection/, 'character class intersection or subtraction (&&)'],
  [/`\(\?[=!]/, 'lookahead'],
  [/`\(\?<[=!]/, 'lookbehind'],
  [/`\(\?>/, 'atomic groups'],
  [/repetition operator: `[*+?}]\+`/, 'possessive quantifiers'],
];

function unsupported(pattern: string, message: string): CypherArgumentError {
  const why = message.replace(/^error parsing regexp: /, '');
  const construct = MISSING.find(([re]) => re.test(why))?.[1];
  const text = construct
    ? `=~ runs RE2 syntax, which has no ${construct} (${why})`
    : `=~: invalid regular expression (${why})`;
  return new CypherArgumentError('InvalidRegex', `${text}: ${JSON.stringify(clip(pattern))}`);
}

const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

/**
 * An estimate of a pattern's program size (RE2's instruction count), read from its text: every atom counts 1,
 * a group its alternatives, `*`, `+` and `?` one more, and `{n,m}` m copies and a choice per optional copy (RE2
 * expands counted repetition, so `(a{1000}){1000}` is a million steps). Malformed text is left to RE2's own
 * parse errors.
 */
export function estimateSize(p: string): number {
  const CAP = 1e12;
  // Per open group: the finished alternatives' total, the current alternative, and the last atom's size.
  const stack: { done: number; seq: number; last: number }[] = [{ done: 0, seq: 0, last: 0 }];
  const top = () => stack[stack.length - 1]!;
  const atom = (n: number) => {
    const f = top();
    f.seq = Math.min(CAP, f.seq + n);
    f.last = n;
  };
  // x{lo,hi}: hi copies of x, and a choice for each optional one.
  const repeat = (times: number, optional: number) => {
    const f = top();
    const grown = Math.min(CAP, f.last * times + optional + 1);
    f.seq = Math.min(CAP, f.seq - f.last + grown);
    f.last = grown;
  };
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '\\') {
      if (p[i + 1] === 'Q') {
        const end = p.indexOf('\\E', i + 2);
        const lit = end < 0 ? p.length - i - 2 : end - i - 2;
        atom(Math.max(1, lit));
        i = end < 0 ? p.length : end + 2;
        continue;
      }
      // \p{Greek}, \x{10FFFF}: one atom with its braces.
      if ((p[i + 1] === 'p' || p[i + 1] === 'P' || p[i + 1] === 'x') && p[i + 2] === '{') {
        const end = p.indexOf('}', i + 3);
        i = end < 0 ? p.length : end + 1;
      } else i += 2;
      atom(1);
      continue;
    }
    if (c === '[') {
      i = classEnd(p, i);
      atom(1);
      continue;
    }
    if (c === '(') {
      const flags = /^\(\?[imsU-]*\)/.exec(p.slice(i, i + 12));
      if (flags) {
        i += flags[0].length;
        continue;
      }
      stack.push({ done: 0, seq: 0, last: 0 });
      i++;
      continue;
    }
    if (c === ')' && stack.length > 1) {
      const f = stack.pop()!;
      atom(Math.min(CAP, f.done + f.seq + 1));
      i++;
      continue;
    }
    if (c === '|') {
      const f = top();
      f.done = Math.min(CAP, f.done + f.seq + 1);
      f.seq = 0;
      f.last = 0;
      i++;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      repeat(1, 1);
      i++;
      continue;
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i, i + 24));
      if (m) {
        const lo = Number(m[1]);
        const hi = m[2] === undefined ? lo : m[3] === '' ? lo + 1 : Number(m[3]);
        repeat(Math.max(lo, hi, 1), Math.max(0, hi - lo));
        i += m[0].length;
        continue;
      }
    }
    atom(1);
    i++;
  }
  let total = 0;
  while (stack.length > 0) {
    const f = stack.pop()!;
    total = Math.min(CAP, f.done + f.seq + total);
  }
  return total;
}

/** Java's `[a-z&&[^aeiou]]`: RE2 would read `&&[` as characters of the class, so it is refused instead. */
function classIntersection(p: string): string | undefined {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') i++;
    else if (p[i] === '[') {
      const end = classEnd(p, i);
      const body = p.slice(i, end);
      if (/&&/.test(body.replace(/\\./g, ''))) return body;
      i = end - 1;
    }
  }
  return undefined;
}

/** The index after a character class starting at `i` (`[`): `]` first is a literal, `[:alpha:]` nests. */
function classEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  while (j < p.length) {
    const c = p[j]!;
    if (c === '\\') j += 2;
    else if (c === '[' && p[j + 1] === ':') {
      const end = p.indexOf(':]', j + 2);
      j = end < 0 ? j + 1 : end + 2;
    } else if (c === ']') return j + 1;
    else j++;
  }
  return p.length;
}
