// The port through which a base reaches an embedding provider (packages/kb-extract implements the providers).
export interface EmbeddingPort {
  /** 'openai' | 'google' | 'mistral' | 'cohere' | 'ollama' | 'openai-compatible' */
  readonly provider: string;
  readonly model: string;
  /** Vector length; every vector returned has exactly this length. */
  readonly dim: number;
  /** Embeds texts in order (batching, retries on 429/5xx and timeouts happen inside); throws a typed error. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}
