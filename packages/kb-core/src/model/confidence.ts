// The default-confidence policy: what confidence a claim gets when its input carries none. The upstream API
// names the option `curator` (open() and quickstart() options, type Curator); internally it is this policy.
import { normalizeToken } from './normalize.js';

/**
 * 'heuristic': a claim without confidence gets a default by provenance.source_type (experiment 0.9,
 * curated database 0.85, literature 0.75, text mining 0.6, prediction 0.5, anything else 0.7).
 * 'none': a claim without confidence gets 1.
 */
export type ConfidencePolicy = 'heuristic' | 'none';
export const CONFIDENCE_POLICIES: readonly ConfidencePolicy[] = ['heuristic', 'none'];

const BY_SOURCE_TYPE: [RegExp, number][] = [
  [/experiment|assay|clinical_trial|wet_lab/, 0.9],
  [/database|curat|registry|ontology/, 0.85],
  [/literature|publication|paper|pubmed|journal|review/, 0.75],
  [/text_mining|nlp|extraction/, 0.6],
  [/predict|model|comput|inference|llm|agent|hypothes/, 0.5],
];

/** The confidence a claim from this source type gets under the policy when it states none. */
export function defaultConfidence(policy: ConfidencePolicy, sourceType: string): number {
  if (policy === 'none') return 1;
  const t = normalizeToken(sourceType);
  for (const [re, v] of BY_SOURCE_TYPE) if (re.test(t)) return v;
  return 0.7;
}
