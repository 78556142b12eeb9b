// Opposite predicates and compositions come from the base's registry: each vocabulary declares its own
// (opposite_predicates, predicate_compositions), and bio's apply to every base as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KbValidationError, open, type Vocabulary } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const support: Vocabulary = {
  description: 'A small vocabulary of IT support, with reasoning tables of its own',
  opposite_predicates: [['Fixes', 'breaks']],
  predicate_compositions: [{ first: 'runs_on', second: 'breaks', infers: 'may_break', stated_by: ['breaks'] }],
};

const facts = [
  claim('app', 'service', 'runs_on', 'db1', 'host', 's1', { confidence: 0.8 }),
  claim('db1', 'host', 'breaks', 'backup', 'job', 's2', { confidence: 0.5 }),
  claim('patch', 'change', 'fixes', 'backup', 'job', 's3', { confidence: 0.9 }),
  claim('patch', 'change', 'breaks', 'backup', 'job', 's4', { confidence: 0.6 }),
];

async function base(path: string, vocab: Vocabulary | null) {
  const db = await open(path);
  if (vocab) await db.registerVocabulary('support', vocab);
  await db.ingestBatch(facts);
  return db;
}

test("a vocabulary's own opposites and compositions give inferences; a base without it gets none", async () => {
  for (const registered of [true, false]) {
    const t = tempKb();
    try {
      await using db = await base(t.path, registered ? support : null);
      const p = await db.predict('app');
      const c = await db.consensus('patch', 'backup');
      const h = await db.testHypothesis('patch', 'fixes', 'backup');
      if (registered) {
        assert.deepEqual(
          p.map((x) => [x.predicate, x.target.id, x.score]),
          [['may_break', 'job:backup', 0.8 * 0.5]],
        );
        assert.deepEqual(
          p[0]!.paths.map((q) => [q.via, q.first, q.second]),
          [['host:db1', 'runs_on', 'breaks']],
        );
        assert.deepEqual(
          c.contradictions.map((x) => x.kind),
          ['opposite'],
        );
        assert.equal(h.contradicting.length, 1);
      } else {
        assert.deepEqual(p, []);
        assert.deepEqual(c.contradictions, []);
        assert.equal(h.contradicting.length, 0);
      }
    } finally {
      t.cleanup();
    }
  }
});

test("bio's tables apply with no vocabulary registered, with bio registered, and beside another vocabulary's", async () => {
  const bioFacts = [
    claim('M', 'drug', 'inhibits', 'K', 'gene', 's1', { confidence: 0.8 }),
    claim('K', 'gene', 'associated_with', 'Z', 'disease', 's2', { confidence: 0.5 }),
  ];
  const seen: unknown[] = [];
  for (const setup of [[], ['bio'], ['bio', 'bio'], ['support']]) {
    const t = tempKb();
    try {
      await using db = await open(t.path);
      for (const v of setup) await (v === 'bio' ? db.registerVocabulary('bio') : db.registerVocabulary(v, support));
      await db.ingestBatch(bioFacts);
      seen.push((await db.predict('M')).map((x) => [x.predicate, x.target.id, x.score, x.paths.length]));
    } finally {
      t.cleanup();
    }
  }
  // One path each time: bio registered on top of the defaults (or twice) adds no second copy of a rule.
  for (const s of seen) assert.deepEqual(s, [['may_treat', 'disease:z', 0.8 * 0.5, 1]]);
});

test('the tables survive reopening (registrations replay from the log)', async () => {
  const t = tempKb();
  try {
    await (await base(t.path, support)).close();
    await using db = await open(t.path);
    assert.deepEqual(
      (await db.predict('app')).map((x) => x.predicate),
      ['may_break'],
    );
  } finally {
    t.cleanup();
  }
});

test('malformed reasoning tables are refused, naming the field', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const bad: [unknown, string][] = [
      [{ opposite_predicates: [['a']] }, 'vocab.opposite_predicates[0]'],
      [{ opposite_predicates: [['a', 'A']] }, 'vocab.opposite_predicates[0]'],
      [{ opposite_predicates: 'a' }, 'vocab.opposite_predicates'],
      [
        { predicate_compositions: [{ first: 'a', second: 'b', infers: 'c' }] },
        'vocab.predicate_compositions[0].stated_by',
      ],
      [
        { predicate_compositions: [{ first: 'a', second: '', infers: 'c', stated_by: [] }] },
        'vocab.predicate_compositions[0].second',
      ],
      [
        { predicate_compositions: [{ first: 'a', second: 'b', infers: 'c', stated_by: [], why: 1 }] },
        'vocab.predicate_compositions[0].why',
      ],
    ];
    for (const [vocab, field] of bad)
      await assert.rejects(
        db.registerVocabulary('x', vocab as Vocabulary),
        (e: unknown) => e instanceof KbValidationError && e.field === field,
        field,
      );
  } finally {
    t.cleanup();
  }
});
