// Heuristic extraction measured on the labelled sentences in test/fixtures/extraction/labelled.jsonl.
// Prints JSON: precision/recall/F1 overall and on explicit relational sentences, the skip rate on negated
// and speculative sentences, the hedge-marking rate, and the same figures for a naive co-occurrence
// baseline (every ordered pair of recognised entities in a sentence, predicate from the first relation
// word in the sentence) measured in the same run, with the ratios.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bio, normalizeName } from '@evident/kb-core';
import { contextFrom, extractSentence, type ExtractOutput } from '../src/extract/heuristic.js';
import { findMentions } from '../src/extract/ner.js';
import { TRIGGERS } from '../src/extract/triggers.js';

interface Row {
  id: string;
  category: string;
  text: string;
  claims: { subject: string; predicate: string; object: string }[];
}
const rows: Row[] = readFileSync(
  fileURLToPath(new URL('../test/fixtures/extraction/labelled.jsonl', import.meta.url)),
  'utf8',
)
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Row);

const ctx = contextFrom([bio]);
const canon = (name: string) => normalizeName(ctx.lexicon.lookup(name)?.name ?? name);
const key = (s: string, p: string, o: string) => `${canon(s)}\u0000${p}\u0000${canon(o)}`;

type Pred = { key: string; hedged: boolean };

function heuristic(text: string): Pred[] {
  const out: ExtractOutput = { claims: [], skipped: [], empty_sentences: [] };
  extractSentence(text, ctx, out);
  return out.claims.map((c) => ({
    key: key(c.subject[0], c.predicate[0], c.object[0]),
    hedged: c.payload.hedged === true,
  }));
}

const WORD_TRIGGERS = [...TRIGGERS].filter(([k]) => !k.includes(' '));
function cooccurrence(text: string): Pred[] {
  const ms = findMentions(text, ctx.lexicon);
  const lower = ` ${text.toLowerCase()} `;
  const hit = WORD_TRIGGERS.find(([k]) => lower.includes(` ${k} `));
  const predicate = hit ? hit[1].predicates[0]! : 'associated_with';
  const out: Pred[] = [];
  for (let i = 0; i < ms.length; i++)
    for (let j = i + 1; j < ms.length; j++) {
      if (ms[i]!.name.toLowerCase() !== ms[j]!.name.toLowerCase())
        out.push({ key: key(ms[i]!.name, predicate, ms[j]!.name), hedged: false });
    }
  return out;
}

function score(extract: (t: string) => Pred[], categories?: string[]) {
  let tp = 0,
    fp = 0,
    fn = 0,
    hedgeTp = 0,
    hedgeMarked = 0,
    denied = 0,
    deniedClean = 0;
  for (const r of rows) {
    if (categories && !categories.includes(r.category)) continue;
    const gold = new Set(r.claims.map((c) => key(c.subject, c.predicate, c.object)));
    const pred = new Map(extract(r.text).map((p) => [p.key, p]));
    for (const [k, p] of pred) {
      if (gold.has(k)) {
        tp++;
        if (r.category === 'hedge') {
          hedgeTp++;
          if (p.hedged) hedgeMarked++;
        }
      } else fp++;
    }
    for (const k of gold) if (!pred.has(k)) fn++;
    if (r.category === 'negation' || r.category === 'speculative') {
      denied++;
      if (pred.size === 0) deniedClean++;
    }
  }
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    precision: r3(precision),
    recall: r3(recall),
    f1: r3(f1),
    true_positives: tp,
    false_positives: fp,
    false_negatives: fn,
    ...(denied ? { negated_or_speculative_sentences_with_nothing_stored: r3(deniedClean / denied) } : {}),
    ...(hedgeTp ? { hedged_claims_marked_hedged: r3(hedgeMarked / hedgeTp) } : {}),
  };
}

const counts: Record<string, number> = {};
for (const r of rows) counts[r.category] = (counts[r.category] ?? 0) + 1;
const started = performance.now();
const ours = score(heuristic);
const ms = performance.now() - started;
const explicit = score(heuristic, ['positive']);
const base = score(cooccurrence);
const baseExplicit = score(cooccurrence, ['positive']);
const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 100) / 100 : null);

// Mention finding on one 200,000-character "sentence" with thousands of mentions (the labelled sentences joined
// by '; '), against the same pieces found one by one in the same run: linear finding gives a ratio near 1.
const pieces = rows.map((r) => r.text.replace(/[.?!]+\s*$/, ''));
let long = '';
for (let i = 0; long.length < 200_000; i++) long += (long ? '; ' : '') + pieces[i % pieces.length];
const timeBest = (fn: () => number) => {
  let best = Infinity;
  let n = 0;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    n = fn();
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: Math.round(best * 10) / 10, mentions: n };
};
const whole = timeBest(() => findMentions(long, ctx.lexicon).length);
const onePieceAtATime = timeBest(() => {
  let n = 0;
  for (let i = 0, at = 0; at < long.length; i++) {
    const p = pieces[i % pieces.length]!;
    n += findMentions(p, ctx.lexicon).length;
    at += p.length + 2;
  }
  return n;
});
console.log(
  JSON.stringify(
    {
      labelled_sentences: rows.length,
      categories: counts,
      heuristic: { all: ours, explicit_relational: explicit, sentences_per_sec: Math.round(rows.length / (ms / 1000)) },
      baseline_cooccurrence: { all: base, explicit_relational: baseExplicit },
      mentions_200k_chars: {
        chars: long.length,
        one_text_ms: whole.ms,
        mentions: whole.mentions,
        baseline_pieces_one_by_one_ms: onePieceAtATime.ms,
        ratio: ratio(whole.ms, onePieceAtATime.ms),
      },
      ratio: {
        precision_all: ratio(ours.precision, base.precision),
        precision_explicit: ratio(explicit.precision, baseExplicit.precision),
        f1_all: ratio(ours.f1, base.f1),
      },
    },
    null,
    2,
  ),
);
