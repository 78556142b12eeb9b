// Extraction by a language model: the text goes out in chunks under the provider's prompt bound, the
// answer must validate against a schema, and each returned claim is checked here again: a known
// predicate, allowed entity types, and an evidence sentence that really occurs in the text (a model that
// invents evidence gets its claim skipped, not stored).
import { z } from 'zod';
import { callStructured, KbProviderError, type ResolvedProvider, type TokenBudget } from '../providers/index.js';
import { CONFIDENCE, type ExtractContext, type ExtractedClaim, type ExtractOutput } from './heuristic.js';
import { splitSentences } from './sentences.js';

export const llmClaimSchema = z.object({
  claims: z
    .array(
      z.object({
        subject: z.string().min(1).max(200),
        subject_type: z.string().min(1).max(60),
        predicate: z.string().min(1).max(60),
        object: z.string().min(1).max(200),
        object_type: z.string().min(1).max(60),
        /** The sentence of the text that states the claim, verbatim. */
        evidence: z.string().min(1).max(2000),
        negated: z.boolean(),
        hedged: z.boolean(),
      }),
    )
    .max(200),
});
export type LlmClaims = z.infer<typeof llmClaimSchema>;

const SYSTEM =
  'You extract biomedical relationships from text for a knowledge base. Return only relationships the text states. ' +
  'For each, give subject and object names as written, their entity types, a predicate from the allowed list, the exact ' +
  'sentence that states it (copied verbatim) as evidence, negated=true if the text denies it, hedged=true if the text ' +
  'only suggests it. Return an empty list when the text states no relationship.';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Groups sentences into chunks under `maxChars` (a single longer sentence is cut). */
export function chunkText(text: string, maxChars: number): string[] {
  const chunks: string[] = [];
  let cur = '';
  for (const { text: s } of splitSentences(text)) {
    for (let i = 0; i < s.length; i += maxChars) {
      const piece = s.slice(i, i + maxChars);
      if (cur.length + piece.length + 1 > maxChars && cur !== '') {
        chunks.push(cur);
        cur = '';
      }
      cur = cur === '' ? piece : `${cur} ${piece}`;
    }
  }
  if (cur !== '') chunks.push(cur);
  return chunks;
}

export async function extractWithModel(
  text: string,
  ctx: ExtractContext,
  provider: ResolvedProvider,
  budget: TokenBudget,
): Promise<ExtractOutput> {
  const out: ExtractOutput = { claims: [], skipped: [], empty_sentences: [] };
  const predicates = Object.keys(ctx.predicates).length
    ? Object.keys(ctx.predicates)
    : [
        'inhibits',
        'activates',
        'binds',
        'treats',
        'associated_with',
        'causes',
        'upregulates',
        'downregulates',
        'targets',
      ];
  const types = new Set<string>();
  for (const r of Object.values(ctx.predicates)) for (const t of [...r.subject_types, ...r.object_types]) types.add(t);
  const header = `Allowed predicates: ${predicates.join(', ')}.\n${types.size ? `Entity types: ${[...types].join(', ')}.\n` : ''}Text:\n`;
  const room = Math.max(200, provider.max_input_chars - header.length);
  for (const chunk of chunkText(text, room)) {
    if (budget.exhausted) {
      out.skipped.push({
        sentence: chunk.slice(0, 200),
        subject: '',
        object: '',
        predicate: '',
        reason: `token_budget: ${budget.limit} tokens spent; text not sent to ${provider.provider}`,
      });
      continue;
    }
    const answer = await callStructured(provider, {
      system: SYSTEM,
      prompt: header + chunk,
      schema: llmClaimSchema,
      budget,
    });
    const haystack = squash(chunk);
    for (const c of answer.claims) {
      const skip = (reason: string) =>
        out.skipped.push({
          sentence: c.evidence,
          subject: c.subject,
          object: c.object,
          predicate: c.predicate,
          reason,
        });
      const predicate = c.predicate
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_');
      const st = c.subject_type
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_');
      const ot = c.object_type
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_');
      if (!predicates.includes(predicate)) {
        skip(`unknown_predicate: '${c.predicate}' is not one of the allowed predicates`);
        continue;
      }
      if (!haystack.includes(squash(c.evidence))) {
        skip('evidence_not_in_text: the model quoted a sentence the text does not contain');
        continue;
      }
      const rule = ctx.predicates[predicate];
      if (
        rule &&
        ((rule.subject_types.length && !rule.subject_types.includes(st)) ||
          (rule.object_types.length && !rule.object_types.includes(ot)))
      ) {
        skip(
          `type_constraint: '${predicate}' needs ${rule.subject_types.join('|') || 'any'} -> ${rule.object_types.join('|') || 'any'}, found ${st} -> ${ot}`,
        );
        continue;
      }
      if (c.negated) {
        skip('negated: the text denies the relationship');
        continue;
      }
      const claim: ExtractedClaim = {
        subject: [c.subject.trim(), st],
        predicate: [predicate, rule?.predicate_class ?? 'association'],
        object: [c.object.trim(), ot],
        confidence: c.hedged ? CONFIDENCE.hedged : CONFIDENCE.explicit,
        payload: { sentence: c.evidence.trim(), extraction: 'llm', model: `${provider.provider}:${provider.model}` },
      };
      if (c.hedged) claim.payload.hedged = true;
      out.claims.push(claim);
    }
  }
  return out;
}

export { KbProviderError };
