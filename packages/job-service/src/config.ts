// Service configuration: defaults, overridden by environment variables, overridden by CLI flags/code.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_HTTP_LIMITS } from '@evident/http-guards';
import { STRUCTURE_SOURCE_DEFAULTS as SD } from './structures/defaults.js';

export interface ServiceConfig {
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL mode when set (pg-boss queue, `evident-jobs worker` processes). */
  databaseUrl?: string | undefined;
  /** Shared rate-limit counters when set. */
  redisUrl?: string | undefined;
  /** Public origin for absolute URLs (webhook_url, results_url); default: from the request's Host. */
  publicUrl?: string | undefined;
  bodyLimitBytes: number;
  /** JSON bodies above this size are parsed and validated on a thread, not on the event loop. */
  inlineJsonLimitBytes: number;
  /** Worker threads that run jobs inside `serve` (embedded mode) or `worker`. */
  workerThreads: number;
  /**
   * Nice steps of the job threads and the processes they start (Vina, Open Babel), below the event loop
   * (@evident/worker-threads' lowerThreadPriority; Linux). Optional so configs built by hand keep working: the default is JOB_NICE_DEFAULT.
   */
  jobNice?: number | undefined;
  /** Threads that validate/prepare submitted inputs (and make CSVs) off the event loop. */
  prepareThreads: number;
  /**
   * A thread idle this long ends, its memory given back (job threads start again when a job comes; one prepare
   * thread is kept, renewed once it has worked).
   */
  threadIdleMs: number;
  /**
   * Deadline of a prepare or CSV task once a thread takes it: past it the thread is terminated and replaced,
   * and the request answers 503 `prepare_timeout` / `csv_timeout` (413 `payload_too_large` for a large body's check).
   */
  requestTaskTimeoutMs: number;
  /** Runs of a job before it is failed (crashes included). */
  maxAttempts: number;
  /** Retry backoff: base * 2^(attempt-1). */
  retryBaseMs: number;
  allowPrivateCallbacks: boolean;
  callbackAttempts: number;
  callbackBaseDelayMs: number;
  callbackTimeoutMs: number;
  /** PostgreSQL mode: a delivery not finished within max(this, 4 x estimate) is presumed lost and retried. */
  jobExpireMinSeconds: number;
  /** PostgreSQL mode: expiry = max(jobExpireMinSeconds, this x the job's high estimate). */
  jobExpireFactor: number;
  /** PostgreSQL mode: a running job whose worker has not beaten for this long is handed to another worker. */
  heartbeatStaleSeconds: number;
  /** PostgreSQL mode: how often pg-boss looks for expired jobs. */
  queueMaintenanceSeconds: number;
  /** The whole request (headers and body) must arrive within this, else 408 and the connection closes. */
  requestTimeoutMs: number;
  /** The request headers must arrive within this, else 408 and the connection closes. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections one remote address may hold; one more is answered 429 and closed (0: no cap). */
  maxConnectionsPerClient: number;
  logLevel: string;
  /**
   * Log bytes held while stdout is not read, at most; lines past it are dropped and counted (src/log.ts).
   * Optional so configs built by hand keep working: the default is LOG_BUFFER_DEFAULT_BYTES.
   */
  logBufferBytes?: number | undefined;
  /** Modules (paths) whose default export is a further job kind to serve beside the production ones (tests). */
  kindModules: string[];
  /** Structure sources (src/structures): RCSB search endpoint, RCSB files base, AlphaFold DB API and files bases. */
  rcsbSearchUrl: string;
  rcsbFilesUrl: string;
  alphafoldApiUrl: string;
  alphafoldFilesUrl: string;
  /** Largest structure file downloaded, in bytes; the download stops as soon as it goes past. */
  structureMaxBytes: number;
  /** Deadline of each request to a structure source. */
  structureTimeoutMs: number;
  /** Experimental entries downloaded and checked for the residues at most, best resolution first. */
  structureCandidates: number;
  /**
   * A JSON file of the external scorers a compound-design request may name (`{ name: { executable, args,
   * timeout_s } }`, kinds/cg/external-scorers.ts); without it, ExternalProcess is refused over HTTP.
   */
  externalScorersFile?: string | undefined;
}

/** Job threads' nice steps unless EVIDENT_JOB_NICE says otherwise (0 turns it off). */
export const JOB_NICE_DEFAULT = 10;

const num = (v: string | undefined, d: number) =>
  v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d;

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  return {
    host: env.EVIDENT_HOST ?? '127.0.0.1',
    port: num(env.PORT, 8000),
    dataDir: resolve(env.EVIDENT_DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    publicUrl: env.EVIDENT_PUBLIC_URL || undefined,
    bodyLimitBytes: Math.round(num(env.EVIDENT_BODY_LIMIT_MB, 100) * 1024 * 1024),
    inlineJsonLimitBytes: num(env.EVIDENT_INLINE_JSON_LIMIT_BYTES, 1024 * 1024),
    workerThreads: num(env.EVIDENT_WORKER_THREADS, Math.max(1, availableParallelism() - 1)),
    jobNice: num(env.EVIDENT_JOB_NICE, JOB_NICE_DEFAULT),
    // Two where cores allow, so one request stuck until its deadline does not hold every submission; one core
    // is left to the HTTP event loop.
    prepareThreads: num(env.EVIDENT_PREPARE_THREADS, Math.max(1, Math.min(2, availableParallelism() - 1))),
    threadIdleMs: num(env.EVIDENT_THREAD_IDLE_SECONDS, 30) * 1000,
    requestTaskTimeoutMs: num(env.EVIDENT_REQUEST_TASK_TIMEOUT_MS, 30_000),
    maxAttempts: num(env.EVIDENT_MAX_ATTEMPTS, 3),
    retryBaseMs: num(env.EVIDENT_RETRY_BASE_MS, 5000),
    allowPrivateCallbacks:
      env.EVIDENT_ALLOW_PRIVATE_CALLBACKS === '1' || env.EVIDENT_ALLOW_PRIVATE_CALLBACKS === 'true',
    callbackAttempts: num(env.EVIDENT_CALLBACK_ATTEMPTS, 5),
    callbackBaseDelayMs: num(env.EVIDENT_CALLBACK_BASE_DELAY_MS, 2000),
    callbackTimeoutMs: num(env.EVIDENT_CALLBACK_TIMEOUT_MS, 10_000),
    jobExpireMinSeconds: num(env.EVIDENT_JOB_EXPIRE_MIN_SECONDS, 900),
    jobExpireFactor: num(env.EVIDENT_JOB_EXPIRE_FACTOR, 4),
    heartbeatStaleSeconds: num(env.EVIDENT_HEARTBEAT_STALE_SECONDS, 30),
    queueMaintenanceSeconds: num(env.EVIDENT_QUEUE_MAINTENANCE_SECONDS, 30),
    requestTimeoutMs: num(env.EVIDENT_REQUEST_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.requestTimeoutMs),
    headersTimeoutMs: num(env.EVIDENT_HEADERS_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.headersTimeoutMs),
    keepAliveTimeoutMs: num(env.EVIDENT_KEEP_ALIVE_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs),
    maxConnectionsPerClient: num(env.EVIDENT_MAX_CONNECTIONS_PER_CLIENT, DEFAULT_HTTP_LIMITS.maxConnectionsPerClient),
    logLevel: env.EVIDENT_LOG_LEVEL ?? 'info',
    logBufferBytes: Math.round(num(env.EVIDENT_LOG_BUFFER_MB, 16) * 1024 * 1024),
    kindModules: (env.EVIDENT_JOB_KIND_MODULES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    rcsbSearchUrl: env.EVIDENT_RCSB_SEARCH_URL || SD.rcsbSearchUrl,
    rcsbFilesUrl: env.EVIDENT_RCSB_FILES_URL || SD.rcsbFilesUrl,
    alphafoldApiUrl: env.EVIDENT_ALPHAFOLD_API_URL || SD.alphafoldApiUrl,
    alphafoldFilesUrl: env.EVIDENT_ALPHAFOLD_FILES_URL || SD.alphafoldFilesUrl,
    structureMaxBytes: Math.round(num(env.EVIDENT_STRUCTURE_MAX_MB, SD.maxBytes / 1024 / 1024) * 1024 * 1024),
    structureTimeoutMs: num(env.EVIDENT_STRUCTURE_TIMEOUT_MS, SD.timeoutMs),
    structureCandidates: num(env.EVIDENT_STRUCTURE_CANDIDATES, SD.maxCandidates),
    externalScorersFile: env.EVIDENT_EXTERNAL_SCORERS ? resolve(env.EVIDENT_EXTERNAL_SCORERS) : undefined,
  };
}
