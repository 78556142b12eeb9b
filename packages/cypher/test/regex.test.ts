// `=~` runs on RE2 (re2js): linear in the text, whole-string matches as Java's String.matches, and a clear
// error for the Java constructs RE2 leaves out and for patterns or texts past the regex budgets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RE2JS } from 're2js';
import { CypherError, CypherLimitError, MemoryGraph, runCypher } from '../src/index.js';
import { estimateSize, MAX_REGEX_SIZE } from '../src/regex.js';

const one = (q: string, p?: Record<string, unknown>) => runCypher(new MemoryGraph(), q, p).rows[0];

test('patterns that make a backtracking engine take exponential time answer at once', () => {
  // A backtracking engine tries 2^n ways to split the a's before it gives up (n = 5,000 here).
  const s = `${'a'.repeat(5000)}!`;
  assert.deepEqual(one('RETURN $s =~ $p AS x', { s, p: '(a+)+$' }), [false]);
  assert.deepEqual(one('RETURN $s =~ $p AS x', { s: 'x'.repeat(5000), p: '(x+x+)+y' }), [false]);
  assert.deepEqual(one('RETURN $s =~ $p AS x', { s: `${'a'.repeat(5000)}`, p: '(a|aa)+' }), [true]);
});

test('=~ matches the whole string, with RE2 syntax and flags', () => {
  assert.deepEqual(one("RETURN 'abc' =~ 'a.c' AS a, 'abc' =~ 'b' AS b, 'abc' =~ '.*b.*' AS c"), [true, false, true]);
  assert.deepEqual(
    one("RETURN 'ABC' =~ '(?i)abc' AS a, 'a.b' =~ '\\\\Qa.b\\\\E' AS b, 'axb' =~ '\\\\Qa.b\\\\E' AS c"),
    [true, true, false],
  );
  assert.deepEqual(
    one("RETURN 'a|b' =~ 'a\\\\|b' AS a, 'ab' =~ 'a|ab' AS b, '😀' =~ '.' AS c, 'é' =~ '\\\\p{L}' AS d"),
    [true, true, true, true],
  );
  assert.deepEqual(one("RETURN 'x\\ny' =~ 'x.y' AS a, 'x\\ny' =~ '(?s)x.y' AS b"), [false, true]);
  assert.deepEqual(one("RETURN null =~ 'a' AS a, 'a' =~ null AS b, 1 =~ '1' AS c"), [null, null, null]);
});

test('the Java constructs RE2 leaves out are refused by name', () => {
  const cases: [string, RegExp][] = [
    ['(a)\\1', /no backreferences/],
    ['(?<n>a)\\k<n>', /no backreferences/],
    ['a(?=b)b', /no lookahead/],
    ['a(?!c)b', /no lookahead/],
    ['(?<=a)b', /no lookbehind/],
    ['(?<!a)b', /no lookbehind/],
    ['a++', /no possessive quantifiers/],
    ['(?>a)', /no atomic groups/],
    ['[a-z&&[^b]]', /no character class intersection/],
    ['(', /invalid regular expression/],
  ];
  for (const [p, why] of cases) {
    assert.throws(
      () => one("RETURN 'ab' =~ $p AS x", { p }),
      (e: unknown) =>
        e instanceof CypherError && e.kind === 'ArgumentError' && e.detail === 'InvalidRegex' && why.test(e.message),
      p,
    );
  }
  // `&` alone in a class is a character.
  assert.deepEqual(one("RETURN '&' =~ '[a&]' AS x"), [true]);
});

test('a pattern that expands past max_regex_size, or a match past max_regex_work, is refused', () => {
  assert.throws(
    () => one("RETURN 'a' =~ $p AS x", { p: '(a{1000}){1000}' }),
    (e: unknown) =>
      e instanceof CypherLimitError && e.code === 'cypher_regex_too_large' && e.limit === 'max_regex_size',
  );
  assert.throws(
    () => one('RETURN $s =~ $p AS x', { s: 'x'.repeat(100_000), p: '(x|xx|y){0,1000}' }),
    (e: unknown) =>
      e instanceof CypherLimitError && e.code === 'cypher_regex_too_large' && e.limit === 'max_regex_work',
  );
  // A simple pattern over a long text is within budget.
  assert.deepEqual(one('RETURN $s =~ $p AS x', { s: `${'x'.repeat(1_000_000)}foo`, p: '.*foo' }), [true]);
});

test('the size estimate follows RE2 instruction counts within a small factor', () => {
  const patterns = [
    'a{1000}',
    '[a-z]{2,5}',
    '(a|bc|d)*',
    '[[:alpha:]]{10}',
    '(x|xx|y){0,1000}',
    '.{0,1000}.{0,1000}',
    '(?:x?){1000}x{1000}',
    '((a|b){10}c){20}',
    'x*'.repeat(300),
  ];
  for (const p of patterns) {
    const actual = RE2JS.compile(p).re2Input.prog.numInst() as number;
    const estimate = estimateSize(p);
    assert.ok(estimate >= actual / 2 && estimate <= actual * 3, `${p}: estimate ${estimate}, RE2 ${actual}`);
  }
  assert.ok(estimateSize('(a{100}){100}') > MAX_REGEX_SIZE);
});
