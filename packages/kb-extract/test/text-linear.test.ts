// The text path is linear in its input (issue #37 point 5). No timing: the work is counted. While a measured call
// runs, every slice/substring/split counts the characters it copies or reads, and every regular-expression
// execution the characters it can have scanned (to the end of its match, or to the end of the input when it
// fails; a sticky one only what it matched). A quadratic step (slicing the sentence so far once per mention,
// testing each relation's clause again) makes that count grow ~16 times when the input grows 4 times; a linear
// path grows it ~4 times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bio } from '@evident/kb-core';
import { contextFrom, extractHeuristic, MAX_EXTRACTED } from '../src/extract/heuristic.js';
import { findMentions } from '../src/extract/ner.js';
import { coordinates, findRelations, MAX_GROUP } from '../src/extract/relations.js';
import { KbValidationError, ingestText, quickstart, tempKb } from './helpers.js';

const ctx = contextFrom([bio]);

/** Characters read by string copies and regular expressions while `fn` runs. */
function charactersRead(fn: () => void): number {
  const proto = String.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const saved = { slice: proto.slice!, substring: proto.substring!, split: proto.split!, exec: RegExp.prototype.exec };
  let count = 0;
  const copy = (name: 'slice' | 'substring') =>
    function (this: string, ...a: unknown[]) {
      const r = saved[name].apply(this, a) as string;
      count += r.length;
      return r;
    };
  proto.slice = copy('slice');
  proto.substring = copy('substring');
  proto.split = function (this: string, ...a: unknown[]) {
    count += String(this).length;
    return saved.split.apply(this, a);
  };
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const m = saved.exec.call(this, s);
    const input = String(s);
    if (m) count += Math.max(1, m.index + m[0].length - from);
    else count += this.sticky ? 1 : Math.max(1, input.length - from);
    return m;
  };
  try {
    fn();
  } finally {
    proto.slice = saved.slice;
    proto.substring = saved.substring;
    proto.split = saved.split;
    RegExp.prototype.exec = saved.exec;
  }
  return count;
}

/** Distinct gene-like symbols (Q, four letters and a digit), none a known word. */
const symbol = (i: number) =>
  `Q${[1, 26, 676, 17_576].map((d) => String.fromCharCode(65 + (Math.floor(i / d) % 26))).join('')}1`;

// Hostile shapes, each one sentence of about n characters.
const SHAPES: Record<string, (n: number) => string> = {
  // The token: a gene-like word every 6 characters, the rest punctuation.
  'mixed punctuation': (n) => 'aZ9-_.'.repeat(Math.ceil(n / 6)),
  // Relations all through one clause (no comma): each relation's clause starts at the sentence start.
  'one long clause': (n) => {
    let s = '';
    for (let i = 0; s.length < n; i++) s += `imatinib inhibits ${symbol(i)} then `;
    return `${s}stop`;
  },
  // Every mention after an unclosed parenthesis.
  parentheses: (n) => '(EGFR '.repeat(Math.ceil(n / 6)),
  // A coordinated list before a verb.
  'coordinated list': (n) => `${Array.from({ length: Math.ceil(n / 8) }, (_, i) => symbol(i)).join(', ')} inhibit EGFR`,
};

for (const [shape, make] of Object.entries(SHAPES)) {
  test(`the text path reads a ${shape} text in linear work`, () => {
    const n = 20_000;
    const small = charactersRead(() => extractHeuristic(make(n), ctx));
    const large = charactersRead(() => extractHeuristic(make(4 * n), ctx));
    assert.ok(small > n, `the count sees the work (${small} characters read for ${n})`);
    // Linear: ~4x. Quadratic: ~16x. 6 leaves room for the odd constant term.
    assert.ok(
      large / small < 6,
      `4x the input read ${(large / small).toFixed(1)}x the characters (${small} -> ${large})`,
    );
  });
}

test('a coordinated list yields claims in proportion to its length, and a list up to MAX_GROUP is related whole', () => {
  const lists = (k: number) => {
    const list = (from: number) => Array.from({ length: k }, (_, i) => symbol(from + i)).join(', ');
    return `${list(0)} inhibit ${list(k)}.`;
  };
  // Every member of one group with every member of the other: k² claims while k fits in a group.
  const whole = extractHeuristic(lists(MAX_GROUP), ctx);
  assert.equal(whole.claims.length, MAX_GROUP * MAX_GROUP);
  assert.ok(whole.claims.every((c) => c.predicate[0] === 'inhibits'));
  // Longer lists are cut into groups of MAX_GROUP, so claims grow with the list, not with its square.
  const c1 = extractHeuristic(lists(100), ctx).claims.length;
  const c4 = extractHeuristic(lists(400), ctx).claims.length;
  assert.ok(c1 > 0);
  assert.ok(c4 / c1 < 6, `4x the list gave ${(c4 / c1).toFixed(1)}x the claims (${c1} -> ${c4})`);
});

test('relations keep their negation, hedging and clause rules when found in one pass', () => {
  const rel = (s: string) =>
    [...findRelations(s, findMentions(s, ctx.lexicon))].map(
      (h) =>
        `${h.subject.name}>${h.object.name}:${h.predicates[0]}${h.negated ? ' neg' : ''}${h.hedged ? ' hedge' : ''}${h.speculative ? ' spec' : ''}`,
    );
  assert.deepEqual(rel('Metformin did not inhibit MTOR in hepatocytes.'), ['metformin>MTOR:inhibits neg']);
  // The negation sits in an earlier clause: it does not reach this relation.
  assert.deepEqual(rel('This was not tested, but imatinib inhibits ABL1.'), ['imatinib>ABL1:inhibits']);
  // In the same clause before the subject it does.
  assert.deepEqual(rel('We could not confirm that imatinib inhibits ABL1.'), ['imatinib>ABL1:inhibits neg hedge']);
  assert.deepEqual(rel('It is unclear whether tamoxifen binds ESR2?'), ['tamoxifen>ESR2:binds spec']);
  // A mention inside parentheses is an alias, not an end: the relation spans it.
  assert.deepEqual(rel('Imatinib (Gleevec) inhibits ABL1 and KIT.'), [
    'imatinib>ABL1:inhibits',
    'imatinib>KIT:inhibits',
  ]);
  // The second verb phrase shares the first relation's subject.
  assert.deepEqual(rel('Gefitinib inhibits EGFR and is approved for NSCLC.'), [
    'gefitinib>EGFR:inhibits',
    'gefitinib>non-small cell lung cancer:treats',
  ]);
});

// COORD's regular expression had adjacent whitespace runs (',' then spaces then a letter backtracked
// quadratically); the plain check answers as it did.
test('coordination gaps are read as before, by a trim and a check of the rest', () => {
  for (const gap of [', ', ' and ', ', and ', ' or ', ' / ', '/', ' as well as ', ' AND ', ',  or  ', ' , '])
    assert.equal(coordinates(gap), true, JSON.stringify(gap));
  for (const gap of ['', ' ', ' and', ' inhibits ', ' and inhibits ', ', which ', ';', ' as well ', ', , '])
    assert.equal(coordinates(gap), false, JSON.stringify(gap));
  assert.equal(coordinates(`${' '.repeat(200_000)}x`), false);
  assert.equal(coordinates(`,${' '.repeat(200_000)}x`), false);
  assert.equal(coordinates(`,${' '.repeat(200_000)}`), true);
});

test('a text yielding more statements than the bound is refused, naming the field', () => {
  assert.ok(MAX_EXTRACTED >= 1_000_000, 'the default bound is above the call limit on claims');
  // Each 'A, B, ... inhibit C, D, ...' pair of full groups yields MAX_GROUP² claims; 5 of them pass a bound of 4.
  const limit = 4 * MAX_GROUP * MAX_GROUP;
  const list = (from: number) => Array.from({ length: MAX_GROUP }, (_, i) => symbol(from + i)).join(', ');
  const parts = Array.from(
    { length: 5 },
    (_, g) => `${list(2 * g * MAX_GROUP)} inhibit ${list((2 * g + 1) * MAX_GROUP)}.`,
  );
  assert.equal(extractHeuristic(parts.slice(0, 4).join(' '), ctx, limit).claims.length, limit);
  assert.throws(
    () => extractHeuristic(parts.join(' '), ctx, limit),
    (e: unknown) => e instanceof KbValidationError && e.code === 'too_large' && e.field === 'text',
  );
});

test('1.6 million characters of the mixed-punctuation token ingest, and a sentence after it is still read', async (t) => {
  const kb = tempKb();
  const db = await quickstart(kb.path);
  t.after(async () => {
    await db.close();
    kb.cleanup();
  });
  const text = `${'aZ9-_.'.repeat(1_600_000 / 6)} Imatinib inhibits ABL1 in leukemia cells.`;
  const r = await ingestText(db, text);
  assert.equal(r.ingested, 1);
  const claims = await db.claimsFor('ABL1');
  assert.deepEqual(
    claims.map((c) => [c.subject[0], c.predicate[0], c.object[0]]),
    [['imatinib', 'inhibits', 'ABL1']],
  );
});
