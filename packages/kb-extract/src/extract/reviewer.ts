// The claim reviewer (upstream: the curator): the offline heuristic, or a language-model provider after the
// heuristic's checks.
import { KbValidationError, type CuratorSpec, type HeuristicCuratorOptions } from '@evident/kb-core';
import { parseProviderSpec, resolveProvider, type ProviderOptions, type ResolvedProvider } from '../providers/index.js';

/**
 * What reviews candidate claims before they are stored (upstream calls it the curator; `configureCurator`
 * sets it): the offline heuristic, or a language-model provider after the heuristic's checks.
 */
export interface ClaimReviewer {
  /** 'heuristic' or the provider's name. */
  name: string;
  provider: ResolvedProvider | undefined;
  options: HeuristicCuratorOptions;
}

export const HEURISTIC: ClaimReviewer = { name: 'heuristic', provider: undefined, options: {} };

/**
 * 'heuristic' (offline, the default), a provider name ('anthropic') or 'provider:model'
 * ('openai:gpt-4o-mini'), or an options object → the reviewer. A provider without its API key in the
 * environment fails here with KbProviderError('missing_api_key'), not later in the middle of an ingest.
 */
export function claimReviewer(spec: CuratorSpec, env: NodeJS.ProcessEnv = process.env): ClaimReviewer {
  const isObj = typeof spec === 'object' && spec !== null;
  const options: HeuristicCuratorOptions = {};
  if (isObj) {
    const o = spec as HeuristicCuratorOptions;
    for (const k of ['min_confidence', 'flag_below'] as const) {
      const v = o[k];
      if (v !== undefined && (typeof v !== 'number' || !(v >= 0 && v <= 1)))
        throw new KbValidationError('out_of_range', k, 'must be a number from 0 to 1');
      if (v !== undefined) options[k] = v;
    }
  }
  if (spec === 'heuristic' || (isObj && (spec as { provider?: string }).provider === 'heuristic')) {
    return { name: 'heuristic', provider: undefined, options };
  }
  if (!isObj && typeof spec !== 'string')
    throw new KbValidationError(
      'invalid_type',
      'curator',
      "must be 'heuristic', a provider name, 'provider:model' or an options object",
    );
  const provider = resolveProvider(isObj ? (spec as ProviderOptions) : parseProviderSpec(spec as string), env);
  return { name: provider.provider, provider, options };
}
