// The interface every job kind implements. The service (routes, queue, workers) is generic over it; the
// engines (target discovery, compound generation) plug in through one adapter module each.
// A request the schema accepted but the kind refuses (bad CSV, impossible ranges...) is an EvidentError with a
// 4xx status and problems located by JSON pointer into the body: the engine's own error, or
// InvalidParametersError. It crosses the worker thread as it is and becomes the HTTP answer (toWireError).
import type { TSchema } from '@sinclair/typebox';
import type { StructureSourcesOptions } from '../structures/index.js';

/**
 * What a kind's run may need from the service's configuration. Plain JSON: it crosses to worker threads.
 * Compound generation reads the structure sources (URLs, cache directory, limits) from it.
 */
export interface KindSettings {
  structures?: StructureSourcesOptions;
  /** Compound design: the external scorers a request's ExternalProcess may name (kinds/cg/external-scorers.ts). */
  externalScorers?: Record<string, RegisteredScorer>;
}

/** An operator's external scorer: what runs when a request names it (nothing of the request reaches the command). */
export interface RegisteredScorer {
  /** Absolute path of the program. */
  executable: string;
  args: string[];
  /** Each run (one batch of SMILES) is killed after this long. */
  timeout_s: number;
}

/** What prepare() may use besides the request: the service's settings and the caller's plan limits. */
export interface PrepareContext {
  readonly settings?: KindSettings;
  /** The caller's plan (absent for callers that prepare a request directly: no plan limit applies). */
  readonly limits?: { readonly max_oracle_calls: number };
}

export interface JobRunContext {
  /** The service's settings for kinds (absent for callers that run a kind directly). */
  readonly settings?: KindSettings;
  /** Report progress; percent in 0..100. Cheap to call often: the service throttles what it stores. */
  progress(stage: string, percent: number): void;
  /** Aborted when the job is cancelled or its worker is shutting down; long loops should check it. */
  signal: AbortSignal;
  /** 1 for the first run of a job, 2 for its first retry, ... (optional: older callers may not set it). */
  readonly attempt?: number;
}

export interface JobKind<Request = unknown, Input = unknown, Result = unknown> {
  /** Job id prefix and queue name, e.g. 'td', 'cg'. */
  readonly id: string;
  /** The POST route that creates jobs of this kind, e.g. '/v1/targets/discover'. */
  readonly route: string;
  /** The 202 answer carries `webhook_url` (the status URL), as the seed's discovery response does. */
  readonly acceptedWithWebhookUrl?: boolean;
  /** JSON Schema of the POST body; strict (no additional properties). Drives validation and the OpenAPI doc. */
  readonly requestSchema: TSchema;
  /**
   * Checks what the schema cannot express and returns the input stored with the job (JSON-serialisable;
   * a retry needs nothing else). Throws a 4xx EvidentError. May be CPU-heavy: the service may run it off the
   * HTTP event loop.
   */
  prepare(request: Request, ctx?: PrepareContext): Input | Promise<Input>;
  /** [low, high] seconds for this input, from a cost model calibrated by the engine's benchmark. */
  estimateSeconds(input: Input): [number, number];
  /** Does the work. Runs in a worker thread or worker process, never on the HTTP event loop. */
  run(input: Input, ctx: JobRunContext): Promise<Result>;
  /** The main table of a result as CSV (for GET /v1/results/{id}?format=csv). */
  toCsv(result: Result): string;
  /**
   * The oracle call log of a result as CSV (GET /v1/results/{id}?format=calls.csv), for kinds whose runs have one;
   * null when this result has none.
   */
  toCallLog?(result: Result): string | null;
  /** Gene-set enrichment rows as CSV (GET /v1/results/{id}?format=enrichment.csv); null when this result has none. */
  toEnrichmentCsv?(result: Result): string | null;
  /** A self-contained HTML page of a result (GET /v1/results/{id}?format=html), for kinds that have one. */
  toHtml?(jobId: string, result: Result): string;
  /** A few lines a person reads in a terminal: the headline figures and the top `top` rows (`evident-jobs results`). */
  summarize?(result: Result, top: number): string[];
  /** The targets a completed job found, for GET /v1/targets across a caller's jobs (discovery kinds only). */
  targetsOf?(result: Result): Array<Record<string, unknown>>;
}
