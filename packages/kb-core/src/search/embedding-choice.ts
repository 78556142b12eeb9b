// open()'s `embedding` and `embedding_dim` options checked and turned into the search index's choice.
import { KbValidationError } from '../errors.js';
import type { EmbeddingChoice } from './search-index.js';
import type { EmbeddingPort } from '../embeddings/port.js';

function isPort(p: unknown): p is EmbeddingPort {
  const o = p as EmbeddingPort;
  return (
    o !== null &&
    typeof o === 'object' &&
    typeof o.embed === 'function' &&
    typeof o.provider === 'string' &&
    typeof o.model === 'string' &&
    Number.isInteger(o.dim) &&
    o.dim > 0
  );
}

export function embeddingChoice(embedding: unknown, embeddingDim: unknown): EmbeddingChoice {
  if (embeddingDim === null || embedding === false) return false;
  let dim: number | undefined;
  if (embeddingDim !== undefined) {
    if (typeof embeddingDim !== 'number' || !Number.isInteger(embeddingDim) || embeddingDim < 8 || embeddingDim > 4096)
      throw new KbValidationError('out_of_range', 'embedding_dim', 'must be an integer from 8 to 4096, or null (off)');
    dim = embeddingDim;
  }
  if (embedding === undefined) return dim === undefined ? {} : { dim };
  if (embedding === null || typeof embedding !== 'object' || Array.isArray(embedding))
    throw new KbValidationError('invalid_type', 'embedding', 'must be false or an object');
  const { port, ...rest } = embedding as { port?: unknown };
  const extra = Object.keys(rest);
  if (extra.length)
    throw new KbValidationError(
      'unknown_option',
      `embedding.${extra[0]}`,
      "is not an option of kb-core's open (provider settings are '@evident/kb''s; kb-core takes a port)",
    );
  if (port === undefined) return dim === undefined ? {} : { dim };
  if (!isPort(port))
    throw new KbValidationError(
      'invalid_type',
      'embedding.port',
      'must be an EmbeddingPort: { provider, model, dim, embed(texts) }',
    );
  if (dim !== undefined && dim !== port.dim)
    throw new KbValidationError(
      'invalid_value',
      'embedding_dim',
      `is ${dim} but the ${port.provider} embedder's vectors have ${port.dim}`,
    );
  return { port };
}
