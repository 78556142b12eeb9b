// What the service keeps: API keys (hashed) and jobs (input, state, compressed result). Two backends share
// this contract: SQLite for the embedded mode, PostgreSQL for scale-out.
import type { PlanName } from '../plans.js';

export type JobStatus = 'processing' | 'completed' | 'failed' | 'cancelled';
export const JOB_STATUSES: readonly JobStatus[] = ['processing', 'completed', 'failed', 'cancelled'];
/** Inside `processing`: waiting for a worker, or running on one. */
export type JobPhase = 'queued' | 'running' | 'done';

export interface KeyRecord {
  key_id: string;
  name: string;
  plan: PlanName;
  rpm: number | null;
  concurrency: number | null;
  created_at: number;
  revoked_at: number | null;
}

export interface NewKey {
  name: string;
  plan: PlanName;
  rpm?: number | null;
  concurrency?: number | null;
}

export interface CreatedKey {
  key_id: string;
  key: string;
  plan: PlanName;
  signing_secret: string;
}

export interface JobRecord {
  id: string;
  seq: number;
  key_id: string;
  kind: string;
  status: JobStatus;
  phase: JobPhase;
  attempts: number;
  max_attempts: number;
  run_after: number;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  progress_stage: string | null;
  progress_percent: number | null;
  error_code: string | null;
  error_message: string | null;
  estimate_low: number;
  estimate_high: number;
  callback_url: string | null;
}

/** A processing job as the queue-wait estimate sees it (`Store.activeJobs`). */
export type ActiveJob = Pick<JobRecord, 'id' | 'phase' | 'started_at' | 'estimate_low' | 'estimate_high'>;

export interface NewJob {
  id: string;
  key_id: string;
  kind: string;
  max_attempts: number;
  estimate_low: number;
  estimate_high: number;
  callback_url: string | null;
  /** gzip of the prepared input JSON (empty when `input_file` holds it). */
  input: Buffer;
  /**
   * Embedded store: the name of a file in `Store.inputDir` that holds the gzip'd input, written and synced by the
   * thread that prepared it (a large input is then never copied, written or read on the event loop).
   */
  input_file?: string;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface ListJobsQuery {
  status?: JobStatus;
  kind?: string;
  limit: number;
  /** Jobs with seq below this (newest first). */
  before?: number;
}

export interface TargetRow {
  job_id: string;
  seq: number;
  target: Record<string, unknown>;
}

/**
 * A submission's `Idempotency-Key`, scoped to the API key: the request it stands for (`fingerprint`, a hash of
 * the route and the body's bytes), the job it created and the accepted answer sent for it (null until stored).
 */
export interface IdempotencyRecord {
  fingerprint: string;
  job_id: string;
  response: string | null;
  created_at: number;
}

/** What `insertJob` needs to record an `Idempotency-Key` with the job, atomically. */
export interface IdempotencyClaim {
  key: string;
  fingerprint: string;
  /** Records created at or before this are expired: ignored and replaced. */
  expiredAt: number;
}

/** A claimed attempt: everything a worker needs. */
export interface Attempt {
  job: JobRecord;
  /** gzip of the input JSON; empty when `inputPath` holds it. */
  input: Buffer;
  /** The file that holds the input (NewJob.input_file), for the job's thread to read itself. */
  inputPath?: string;
}

export interface Store {
  readonly backend: 'sqlite' | 'postgres';
  /**
   * Embedded store: the folder where a preparing thread may write a large input as a file (`NewJob.input_file`);
   * undefined when inputs go through the store's connection (PostgreSQL).
   */
  readonly inputDir?: string;
  migrate(): Promise<void>;
  close(): Promise<void>;

  createKey(k: NewKey): Promise<CreatedKey>;
  listKeys(): Promise<KeyRecord[]>;
  revokeKey(keyId: string): Promise<boolean>;
  findKeyByHash(hash: string): Promise<KeyRecord | undefined>;
  signingSecretOf(keyId: string): Promise<string | undefined>;
  /** The key's record by id (revoked ones too). */
  findKeyById(keyId: string): Promise<KeyRecord | undefined>;

  // Signed results links (api/result-links.ts): one server secret, shared by every API instance, made at first
  // use; and per job a generation that revoking its links moves on (a link carries the generation it was made in).
  /** The secret results links are signed with (32 random bytes), made once; the same for every caller. */
  resultLinkSecret(): Promise<Buffer>;
  resultLinkGeneration(jobId: string): Promise<number>;
  /** Every link made so far for this job stops working; returns the new generation. */
  revokeResultLinks(jobId: string): Promise<number>;

  /**
   * Inserts the job unless the key already has `limit` jobs processing; atomically. With `idempotency`, in the
   * same transaction: when the key's record of that idempotency key exists (and has not expired), nothing is
   * inserted and the record is returned; else it is recorded with the new job. Two concurrent submissions with
   * one idempotency key therefore create one job.
   */
  insertJob(
    job: NewJob,
    concurrencyLimit: number,
    idempotency?: IdempotencyClaim,
  ): Promise<
    { ok: true; job: JobRecord } | { ok: false; processing: number } | { ok: false; existing: IdempotencyRecord }
  >;
  /** The key's unexpired record of this idempotency key (created after `expiredAt`). */
  findIdempotency(keyId: string, key: string, expiredAt: number): Promise<IdempotencyRecord | undefined>;
  /** Keeps the accepted answer sent for the job an idempotency key created, for replays. */
  saveIdempotentResponse(keyId: string, key: string, jobId: string, response: string): Promise<void>;
  /** Drops the record (its job could not be queued), so that a retry with the key creates a new job. */
  forgetIdempotency(keyId: string, key: string, jobId: string): Promise<void>;
  /**
   * `sameStateAs`: the key record this store returned to the same request. The embedded store may then answer
   * from the state that lookup saw (the request reads one consistent state); PostgreSQL reads the row.
   */
  getJob(id: string, sameStateAs?: KeyRecord): Promise<JobRecord | undefined>;
  listJobs(keyId: string, q: ListJobsQuery): Promise<JobRecord[]>;
  getResult(id: string): Promise<Buffer | undefined>;
  /** Every key's processing jobs in queue order (the first `limit`), for queue positions and waits. */
  activeJobs(limit: number): Promise<ActiveJob[]>;
  /** Cancels a processing job of this key. */
  cancelJob(id: string, keyId: string): Promise<'cancelled' | 'finished' | 'not_found'>;
  /** Newest job first, each job's targets in the order the kind gave them (stored reversed for that). */
  listTargets(keyId: string, limit: number, before?: number): Promise<TargetRow[]>;

  // Worker side.
  /** Embedded queue: takes the oldest queued job due now and marks it running (attempts + 1). */
  claimNext(now: number): Promise<Attempt | undefined>;
  /** Queue-delivered job (PostgreSQL): marks it running (attempts + 1) if still processing. */
  startAttempt(id: string, now: number, deliveryId?: string): Promise<Attempt | undefined>;
  /** Called every second while a job runs: records that its worker is alive; returns the job's status. */
  heartbeat(id: string, now: number): Promise<JobStatus | undefined>;
  /**
   * PostgreSQL: running jobs whose worker stopped beating before `olderThan` are put back to `queued`
   * (each returned once, to exactly one caller) so that their queue delivery can be failed and retried.
   */
  reclaimStale?(olderThan: number): Promise<Array<{ id: string; kind: string; delivery_id: string }>>;
  setProgress(id: string, stage: string, percent: number): Promise<void>;
  /** Stores the result and targets; false if the job was no longer processing (e.g. cancelled). */
  completeJob(id: string, result: Buffer, targets: Array<Record<string, unknown>>, now: number): Promise<boolean>;
  failJob(id: string, code: string, message: string, now: number): Promise<boolean>;
  retryLater(id: string, runAfter: number, message: string): Promise<boolean>;
  /** Embedded graceful shutdown: puts a running job back in the queue without counting the attempt. */
  releaseAttempt(id: string): Promise<void>;
  /** PostgreSQL: jobs still processing that the queue no longer holds (older than `olderThan`) are failed. */
  failOrphansOfQueue?(olderThan: number, now: number): Promise<string[]>;
  /** Embedded startup: jobs left `running` by a dead process are requeued, or failed when out of attempts. */
  recoverOrphans(now: number): Promise<{ requeued: string[]; failed: string[] }>;
  statusOf(id: string): Promise<JobStatus | undefined>;

  // Callbacks: a job that ends with a callback_url gets a due time; deliverers claim it with a lease, so a
  // delivery cut short by a crash is picked up again once the lease runs out.
  /** Claims the callback of this job (or, without id, up to `limit` due ones); returns the claimed job ids. */
  claimCallbacks(now: number, leaseMs: number, id?: string, limit?: number): Promise<string[]>;
  /** Delivered or given up. */
  finishCallback(id: string): Promise<void>;
}
