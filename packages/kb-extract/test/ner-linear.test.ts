// Mention finding on one very long "sentence" (issue #13 point 5): a 200,000-character text with thousands of
// mentions gives exactly the mentions its pieces give alone, shifted to where each piece sits. No timing here
// (bench/extract.ts measures it); the outcome is what is asserted, including that the text was dense.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bio } from '@evident/kb-core';
import { findMentions, type Mention } from '../src/extract/ner.js';
import { contextFrom } from '../src/extract/heuristic.js';

const PIECES = [
  'Imatinib inhibits ABL1 and KIT in chronic myeloid leukemia cells',
  'Gefitinib, an EGFR inhibitor, is approved for NSCLC',
  'HER2 is overexpressed in metastatic breast cancer',
  'the Wnt/β-catenin signaling pathway drives colorectal cancer',
  "Alzheimer's disease and tau",
  'Herceptin binds ERBB2 in non-small cell lung cancer',
  'TP53 is associated with Li-Fraumeni syndrome',
  'apoptosis in hepatocytes and T cells',
];

test('a 200k-character text with thousands of mentions gives the mentions of its pieces', () => {
  const ctx = contextFrom([bio]);
  const expected: Mention[] = [];
  let text = '';
  for (let i = 0; text.length < 200_000; i++) {
    if (text) text += '; ';
    const piece = PIECES[i % PIECES.length]!;
    for (const m of findMentions(piece, ctx.lexicon))
      expected.push({ ...m, start: m.start + text.length, end: m.end + text.length });
    text += piece;
  }
  const got = findMentions(text, ctx.lexicon);
  assert.ok(got.length > 10_000, `dense: ${got.length} mentions`);
  assert.equal(got.length, expected.length);
  assert.deepEqual(got, expected);
});
