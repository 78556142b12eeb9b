// The offline extractor: sentences -> mentions -> relation patterns -> candidate claims. Negated and
// speculative statements are skipped with a reason; hedged ones are kept with lower confidence and marked.
import { KbValidationError, type Vocabulary } from '@evident/kb-core';
import { baseLexicon, type Lexicon } from './lexicon.js';
import { findMentions, type Mention } from './ner.js';
import { findRelations } from './relations.js';
import { splitSentences } from './sentences.js';

export interface PredicateRule {
  predicate_class?: string;
  subject_types: string[];
  object_types: string[];
}

/** What recognition and type checks draw on: the lexicon and the predicate constraints in force. */
export interface ExtractContext {
  lexicon: Lexicon;
  predicates: Record<string, PredicateRule>;
}

/** A claim found in text, before provenance is attached. */
export interface ExtractedClaim {
  subject: [string, string];
  predicate: [string, string];
  object: [string, string];
  confidence: number;
  payload: {
    sentence: string;
    extraction: 'heuristic' | 'llm';
    trigger?: string;
    hedged?: boolean;
    [k: string]: unknown;
  };
}

export interface SkippedStatement {
  sentence: string;
  subject: string;
  object: string;
  predicate: string;
  reason: string;
}

export interface ExtractOutput {
  claims: ExtractedClaim[];
  skipped: SkippedStatement[];
  /** Sentences in which nothing was extracted or skipped (the 'smart' mode sends these to a model). */
  empty_sentences: string[];
}

export const CONFIDENCE = { explicit: 0.7, hedged: 0.4 } as const;

/**
 * Claims and skipped statements one text may yield. Far above what prose gives (a 10-million-character text of
 * short sentences stays under it); a list of thousands of coordinated names on both sides of a verb would
 * otherwise fill memory before the call's claim limit is checked.
 */
export const MAX_EXTRACTED = 2_000_000;

// Used when a predicate is not registered (a base without the bio vocabulary).
const DEFAULT_CLASS: Record<string, string> = {
  inhibits: 'pharmacology',
  activates: 'pharmacology',
  binds: 'molecular',
  interacts_with: 'molecular',
  treats: 'pharmacology',
  associated_with: 'association',
  causes: 'association',
  upregulates: 'regulation',
  downregulates: 'regulation',
  targets: 'pharmacology',
  metabolized_by: 'pharmacology',
  expressed_in: 'expression',
  biomarker_for: 'clinical',
  participates_in: 'pathway',
  contraindicated_for: 'clinical',
  encodes: 'genetic',
};

export function contextFrom(vocabs: Vocabulary[], predicates?: Record<string, PredicateRule>): ExtractContext {
  const preds: Record<string, PredicateRule> = {};
  if (predicates) Object.assign(preds, predicates);
  else {
    for (const v of vocabs) {
      for (const [name, spec] of Object.entries(v.predicates ?? {})) {
        preds[name] = {
          ...(spec.class ? { predicate_class: spec.class } : {}),
          subject_types: spec.subject_types ?? [],
          object_types: spec.object_types ?? [],
        };
      }
    }
  }
  return { lexicon: baseLexicon(vocabs), predicates: preds };
}

function fits(rule: PredicateRule | undefined, s: Mention, o: Mention): boolean {
  if (!rule) return true;
  return (
    (rule.subject_types.length === 0 || rule.subject_types.includes(s.type)) &&
    (rule.object_types.length === 0 || rule.object_types.includes(o.type))
  );
}

/** `limit`: at most this many claims and skipped statements, else `too_large` (MAX_EXTRACTED by default). */
export function extractHeuristic(text: string, ctx: ExtractContext, limit = MAX_EXTRACTED): ExtractOutput {
  const out: ExtractOutput = { claims: [], skipped: [], empty_sentences: [] };
  for (const { text: sentence } of splitSentences(text)) {
    const before = out.claims.length + out.skipped.length;
    extractSentence(sentence, ctx, out, limit);
    if (out.claims.length + out.skipped.length === before) out.empty_sentences.push(sentence);
  }
  return out;
}

export function extractSentence(
  sentence: string,
  ctx: ExtractContext,
  out: ExtractOutput,
  limit = MAX_EXTRACTED,
): void {
  const mentions = findMentions(sentence, ctx.lexicon);
  if (mentions.length < 2) return;
  const seen = new Set<string>();
  // Hits come one at a time; the bound is checked as records are added, before they can fill memory.
  const bounded = () => {
    if (out.claims.length + out.skipped.length > limit)
      throw new KbValidationError(
        'too_large',
        'text',
        `yields more than ${limit.toLocaleString('en-US')} claims and skipped statements; split the input`,
      );
  };
  for (const hit of findRelations(sentence, mentions)) {
    const { subject: s, object: o } = hit;
    const skip = (predicate: string, reason: string) => {
      out.skipped.push({ sentence, subject: s.name, object: o.name, predicate, reason });
      bounded();
    };
    if (s.name.toLowerCase() === o.name.toLowerCase()) continue;
    const predicate = hit.predicates.find((p) => fits(ctx.predicates[p], s, o));
    if (predicate === undefined) {
      const p = hit.predicates[0]!;
      const rule = ctx.predicates[p]!;
      skip(
        p,
        `type_constraint: '${p}' needs ${rule.subject_types.join('|') || 'any'} -> ${rule.object_types.join('|') || 'any'}, found ${s.type} -> ${o.type}`,
      );
      continue;
    }
    if (hit.negated) {
      skip(predicate, 'negated: the sentence denies the relationship');
      continue;
    }
    if (hit.speculative) {
      skip(predicate, 'speculative: the sentence asks or leaves open whether the relationship holds');
      continue;
    }
    const key = `${s.name}\u0000${predicate}\u0000${o.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const cls = ctx.predicates[predicate]?.predicate_class ?? DEFAULT_CLASS[predicate] ?? 'association';
    const payload: ExtractedClaim['payload'] = { sentence, extraction: 'heuristic', trigger: hit.trigger };
    if (hit.hedged) payload.hedged = true;
    out.claims.push({
      subject: [s.name, s.type],
      predicate: [predicate, cls],
      object: [o.name, o.type],
      confidence: hit.hedged ? CONFIDENCE.hedged : CONFIDENCE.explicit,
      payload,
    });
    bounded();
  }
}
