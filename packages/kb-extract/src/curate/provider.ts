// The model curator: the offline checks run first and their skips are final (a model cannot waive a type
// constraint or a duplicate); the remaining claims go to the model in chunks, each claim with its
// evidence sentence, and the model's verdict (store, skip or flag, with a reason) is validated by schema.
import { z } from 'zod';
import { callStructured, type ResolvedProvider, type TokenBudget } from '../providers/index.js';
import type { ClaimInput, KbDB } from '@evident/kb-core';
import { reviewHeuristic, type HeuristicCuratorOptions, type Verdict } from './heuristic.js';

export const verdictSchema = z.object({
  verdicts: z
    .array(
      z.object({
        index: z.number().int().min(0),
        decision: z.enum(['store', 'skip', 'flag']),
        reason: z.string().max(500),
      }),
    )
    .max(500),
});

const SYSTEM =
  'You review candidate claims for a biomedical knowledge base. For each numbered claim decide: store (the evidence ' +
  'states it plainly), flag (plausible but uncertain, hedged, or at odds with common knowledge) or skip (the evidence ' +
  'does not support it, it is negated, or it is not a biomedical fact). Give a short reason for flag and skip.';

export async function reviewWithModel(
  db: KbDB,
  claims: ClaimInput[],
  provider: ResolvedProvider,
  budget: TokenBudget,
  options: HeuristicCuratorOptions = {},
): Promise<Verdict[]> {
  const verdicts = await reviewHeuristic(db, claims, options);
  const open = verdicts.map((v, i) => (v.decision === 'skip' ? -1 : i)).filter((i) => i >= 0);
  const line = (i: number) => {
    const c = claims[i]!;
    const evidence = (c.payload as { sentence?: unknown } | undefined)?.sentence;
    return JSON.stringify({
      index: i,
      subject: c.subject,
      predicate: c.predicate[0],
      object: c.object,
      confidence: c.confidence,
      evidence: typeof evidence === 'string' ? evidence.slice(0, 600) : undefined,
    });
  };
  let chunk: number[] = [];
  let size = 0;
  const flush = async () => {
    if (!chunk.length) return;
    const ids = chunk;
    chunk = [];
    size = 0;
    if (budget.exhausted) {
      for (const i of ids)
        verdicts[i] = {
          decision: 'flag',
          reasons: [...verdicts[i]!.reasons, `unreviewed: token budget of ${budget.limit} spent`],
        };
      return;
    }
    const answer = await callStructured(provider, {
      system: SYSTEM,
      prompt: `Claims, one JSON object per line:\n${ids.map(line).join('\n')}`,
      schema: verdictSchema,
      budget,
    });
    const got = new Map(answer.verdicts.filter((v) => ids.includes(v.index)).map((v) => [v.index, v]));
    for (const i of ids) {
      const v = got.get(i);
      const base = verdicts[i]!;
      if (!v)
        verdicts[i] = {
          decision: 'flag',
          reasons: [...base.reasons, `unreviewed: ${provider.provider} returned no verdict for this claim`],
        };
      else if (v.decision === 'skip') verdicts[i] = { decision: 'skip', reasons: [`model: ${v.reason || 'rejected'}`] };
      else if (v.decision === 'flag' || base.decision === 'flag')
        verdicts[i] = {
          decision: 'flag',
          reasons: [...base.reasons, ...(v.decision === 'flag' ? [`model: ${v.reason || 'flagged'}`] : [])],
        };
      else verdicts[i] = { decision: 'store', reasons: [] };
    }
  };
  const room = provider.max_input_chars - 200;
  for (const i of open) {
    const l = line(i).length + 1;
    if (chunk.length && (size + l > room || chunk.length >= 50)) await flush();
    chunk.push(i);
    size += l;
  }
  await flush();
  return verdicts;
}
