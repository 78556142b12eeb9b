// How a base is opened: the options of open() and quickstart(), under the upstream API's names.
import { callForm } from '../call-forms.js';
import { KbValidationError } from '../errors.js';
import { CONFIDENCE_POLICIES, type ConfidencePolicy } from '../model/confidence.js';
import type * as extract from './extraction-port.js';
import type { EmbeddingPort } from '../embeddings/port.js';

/**
 * How claims and entities are embedded for search: false turns embedding off (search is lexical); absent, or
 * without a port, the local embedder (offline, built from the base; src/embeddings/local.ts); with a port,
 * that provider ('@evident/kb' makes ports from `{ provider, model, dim, base_url }`).
 */
export type EmbeddingOption = { port?: EmbeddingPort } | false;

/**
 * 'graph' is the embedded engine (in-memory graph index over the log); 'auto' picks the best available,
 * which is 'graph'; 'rust' names the upstream's native engine and is accepted as an alias of the fastest
 * engine this package ships, which is also 'graph'. The storage (SQLite file or PostgreSQL) follows the path.
 */
export type Backend = 'graph' | 'auto' | 'rust';
export const BACKENDS: readonly Backend[] = ['graph', 'auto', 'rust'];

/**
 * The default-confidence policy (model/confidence.ts), under the name the upstream API gives the option:
 * 'heuristic': a claim without confidence gets a default by provenance.source_type (experiment 0.9,
 * curated database 0.85, literature 0.75, text mining 0.6, prediction 0.5, anything else 0.7).
 * 'none': a claim without confidence gets 1.
 */
export type Curator = ConfidencePolicy;

export interface OpenOptions {
  backend?: Backend;
  /**
   * false (default): a claim that breaks a registered vocabulary's predicate class or type constraints, or
   * uses an entity type no vocabulary has, is stored with `warnings`. true: such a claim is refused with a
   * KbValidationError (an unknown type is still only a warning). Shapes, provenance, confidence and payload
   * schemas are checked the same either way.
   */
  strict?: boolean;
  /** The default-confidence policy (see Curator). */
  curator?: Curator;
  /** Text, chat and review for this base (ingestText, ingestChat, …); '@evident/kb' opens with one. */
  extraction?: extract.ExtractionPort;
  /** See EmbeddingOption. */
  embedding?: EmbeddingOption;
  /** The upstream's option: the vector length (the local embedder's; a port's must match), or null for off. */
  embedding_dim?: number | null;
}

/** OpenOptions, and the vocabularies to register. */
export interface QuickstartOptions extends OpenOptions {
  vocabs?: string[];
}

export const OPEN_OPTION_KEYS = ['backend', 'curator', 'extraction', 'strict', 'embedding', 'embedding_dim'] as const;
export const QUICKSTART_OPTION_KEYS = ['vocabs', ...OPEN_OPTION_KEYS] as const;

/**
 * The arguments of open() after the path: the seed's `open(path, backend)`, `open(path, backend, options)` or
 * `open(path, options)`, as one options object (its keys checked; values are checked by KbDB.open).
 */
export function openOptionsOf(args: readonly unknown[]): OpenOptions {
  return callForm<OpenOptions>(args, ['backend'], ['string'], OPEN_OPTION_KEYS);
}

/**
 * The arguments of quickstart() after the path: the seed's `quickstart(path, vocabs, curator)` (either may be
 * left out, or followed by an options object) or `quickstart(path, options)`, as one options object.
 */
export function quickstartOptionsOf(args: readonly unknown[]): QuickstartOptions {
  return callForm<QuickstartOptions>(args, ['vocabs', 'curator'], ['array', 'string'], QUICKSTART_OPTION_KEYS);
}

/** open()'s `strict`, `backend` and `curator`, checked, with their defaults. */
export function checkOpenOptions(options: OpenOptions): { backend: Backend; policy: ConfidencePolicy } {
  if (options.strict !== undefined && typeof options.strict !== 'boolean')
    throw new KbValidationError('invalid_type', 'strict', 'must be true or false');
  const backend = options.backend ?? 'graph';
  if (!BACKENDS.includes(backend)) {
    throw new KbValidationError(
      'unknown_backend',
      'backend',
      `unknown backend '${String(backend)}'; use one of ${BACKENDS.join(', ')}`,
    );
  }
  const policy = options.curator ?? 'heuristic';
  if (!CONFIDENCE_POLICIES.includes(policy))
    throw new KbValidationError('invalid_value', 'curator', "must be 'heuristic' or 'none'");
  return { backend, policy };
}
