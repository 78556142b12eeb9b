// Typed client for the /v1 API (uses the global fetch).
import { EvidentError } from '@evident/contract';
import type { StatusDocument } from '../wire/status.js';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
}

export interface Accepted {
  job_id: string;
  status: 'processing';
  estimated_time: string;
  estimated_seconds: [number, number];
  /** When the job waits for a worker: 1 for the next one taken. */
  queue_position?: number;
  /** Discovery jobs: the status URL (the seed's field). Every kind's answer has it in `Location`. */
  webhook_url?: string;
}

export interface SubmitOptions {
  /**
   * Sent as `Idempotency-Key` (1-255 printable ASCII characters): within 24 h a submission repeated with the same
   * key and body answers the first job instead of creating another. Reuse it when retrying one request; use a
   * new one (a UUID) for each new request.
   */
  idempotencyKey?: string;
}

/** A signed link that opens a completed job's results in a browser without the API key, until `expires_at`. */
export interface ResultsLink {
  url: string;
  token: string;
  expires_at: string;
}

export type JobStatusName = StatusDocument['status'];

/** The status document of GET /v1/jobs/{id}, as the server defines it. */
export type JobStatus = StatusDocument;

export interface JobList {
  jobs: JobStatus[];
  next_cursor: string | null;
}

export interface TargetList {
  targets: Array<Record<string, unknown> & { job_id: string }>;
  next_cursor: string | null;
}

/**
 * An error answer of the API: HTTP status, stable code, and per-field details for 400s. An EvidentError
 * (@evident/contract), as every error of Evident is: `problems` are the details.
 */
export class EvidentApiError extends EvidentError {
  declare readonly status: number;
  readonly details: Array<{ path: string; message: string }> | undefined;
  readonly retryAfter: number | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    details?: Array<{ path: string; message: string }>,
    retryAfter?: number,
  ) {
    super(code, message, { status, ...(details ? { problems: details } : {}) });
    this.details = details;
    this.retryAfter = retryAfter;
  }
}

export interface WaitOptions {
  /** Called whenever a poll returns (status and progress). */
  onProgress?: (status: JobStatus) => void;
  /** The pause between polls (default 1000 ms). */
  intervalMs?: number;
  /** With this, the pause grows by half after each poll up to this bound: quick jobs are seen soon, long ones
   *  cost few requests. Default: `intervalMs` (a constant pause). */
  maxIntervalMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** `Retry-After` in seconds: delta-seconds, or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason ?? new Error('aborted'));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface Client {
  /** POST /v1/targets/discover */
  discoverTargets(request: Record<string, unknown>, opts?: SubmitOptions): Promise<Accepted>;
  /** POST /v1/compounds/generate */
  generateCompounds(request: Record<string, unknown>, opts?: SubmitOptions): Promise<Accepted>;
  /** POST to any job-kind route, e.g. '/v1/targets/discover'. */
  submit(route: string, request: Record<string, unknown>, opts?: SubmitOptions): Promise<Accepted>;
  getJob(jobId: string): Promise<JobStatus>;
  listJobs(q?: { status?: JobStatusName; kind?: string; limit?: number; cursor?: string }): Promise<JobList>;
  cancelJob(jobId: string): Promise<JobStatus>;
  /** Polls until the job leaves `processing`; resolves with the final status (completed, failed or cancelled). */
  waitForJob(jobId: string, opts?: WaitOptions): Promise<JobStatus>;
  getResults<T = unknown>(jobId: string): Promise<T>;
  getResultsCsv(jobId: string): Promise<string>;
  /** GET /v1/results/{id}?format=calls.csv: the oracle call log of a compound-design job run with `scoring`. */
  getCallLogCsv(jobId: string): Promise<string>;
  /** GET /v1/results/{id}?format=enrichment.csv: the gene-set enrichment of a discovery job run with it. */
  getEnrichmentCsv(jobId: string): Promise<string>;
  /** POST /v1/results/{id}/links: a signed link for a browser, lasting `expiresIn` seconds (default 3600). */
  createResultsLink(jobId: string, opts?: { expiresIn?: number }): Promise<ResultsLink>;
  /** DELETE /v1/results/{id}/links: every link made for the job so far stops working. */
  revokeResultsLinks(jobId: string): Promise<void>;
  listTargets(q?: { limit?: number; cursor?: string }): Promise<TargetList>;
}

export function createClient(opts: ClientOptions): Client {
  const base = opts.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const f = opts.fetch ?? fetch;

  async function call(
    method: string,
    path: string,
    body?: unknown,
    accept = 'application/json',
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> {
    const res = await f(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${opts.apiKey}`,
        accept,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...extraHeaders,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (res.ok) return res;
    let err: { code?: string; message?: string; details?: Array<{ path: string; message: string }> } = {};
    try {
      err = ((await res.json()) as { error?: typeof err }).error ?? {};
    } catch {
      /* not JSON */
    }
    throw new EvidentApiError(
      res.status,
      err.code ?? `http_${res.status}`,
      err.message ?? res.statusText,
      err.details,
      parseRetryAfter(res.headers.get('retry-after')),
    );
  }
  const json = async <T>(method: string, path: string, body?: unknown) =>
    (await (await call(method, path, body)).json()) as T;
  const post = async (route: string, body: Record<string, unknown>, o: SubmitOptions = {}): Promise<Accepted> => {
    const headers: Record<string, string> =
      o.idempotencyKey === undefined ? {} : { 'idempotency-key': o.idempotencyKey };
    return (await (await call('POST', route, body, 'application/json', headers)).json()) as Accepted;
  };
  const qs = (q: Record<string, unknown> = {}) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined) p.set(k, String(v));
    const s = p.toString();
    return s ? `?${s}` : '';
  };
  const id = (jobId: string) => encodeURIComponent(jobId);

  const client: Client = {
    discoverTargets: (r, o) => post('/v1/targets/discover', r, o),
    generateCompounds: (r, o) => post('/v1/compounds/generate', r, o),
    submit: (route, r, o) => post(route, r, o),
    getJob: (jobId) => json('GET', `/v1/jobs/${id(jobId)}`),
    listJobs: (q) => json('GET', `/v1/jobs${qs(q)}`),
    cancelJob: (jobId) => json('DELETE', `/v1/jobs/${id(jobId)}`),
    async waitForJob(jobId, w = {}) {
      const start = Date.now();
      let interval = w.intervalMs ?? 1000;
      const maxInterval = Math.max(interval, w.maxIntervalMs ?? interval);
      for (;;) {
        let wait = interval;
        try {
          const s = await client.getJob(jobId);
          w.onProgress?.(s);
          if (s.status !== 'processing') return s;
        } catch (e) {
          // Polling must not fail a long wait because the key's request budget ran out for a moment: wait as told.
          if (!(e instanceof EvidentApiError && e.status === 429)) throw e;
          wait = Math.max(interval, (e.retryAfter ?? 1) * 1000);
        }
        if (w.timeoutMs !== undefined && Date.now() - start > w.timeoutMs) {
          throw new EvidentError('wait_timeout', `job ${jobId} still processing after ${w.timeoutMs} ms`);
        }
        await pause(wait, w.signal);
        interval = Math.min(maxInterval, Math.ceil(interval * 1.5));
      }
    },
    getResults: (jobId) => json('GET', `/v1/results/${id(jobId)}`),
    getResultsCsv: async (jobId) =>
      (await call('GET', `/v1/results/${id(jobId)}?format=csv`, undefined, 'text/csv')).text(),
    getCallLogCsv: async (jobId) =>
      (await call('GET', `/v1/results/${id(jobId)}?format=calls.csv`, undefined, 'text/csv')).text(),
    getEnrichmentCsv: async (jobId) =>
      (await call('GET', `/v1/results/${id(jobId)}?format=enrichment.csv`, undefined, 'text/csv')).text(),
    createResultsLink: (jobId, o = {}) =>
      json('POST', `/v1/results/${id(jobId)}/links`, o.expiresIn === undefined ? {} : { expires_in: o.expiresIn }),
    revokeResultsLinks: async (jobId) => void (await call('DELETE', `/v1/results/${id(jobId)}/links`)),
    listTargets: (q) => json('GET', `/v1/targets${qs(q)}`),
  };
  return client;
}
