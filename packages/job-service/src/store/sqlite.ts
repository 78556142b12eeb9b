// Embedded store: one SQLite file (WAL) under the data directory. better-sqlite3 is synchronous; its calls
// are short (indexed lookups, small writes) so they run on the event loop; heavy work is in worker threads.
// Large inputs are files beside it, written and read by threads (input-files.ts).
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { hashApiKey, newApiKey, newKeyId, newSigningSecret } from '../ids.js';
// Deliberate copy: postgres.ts imports the same list; both implement Store over the same record types.
import type {
  ActiveJob,
  Attempt,
  CreatedKey,
  IdempotencyClaim,
  IdempotencyRecord,
  JobRecord,
  JobStatus,
  KeyRecord,
  ListJobsQuery,
  NewJob,
  NewKey,
  Store,
  TargetRow,
} from './types.js';
import { JOB_COLUMNS } from './job-columns.js';
import { ChangeGatedCache } from './change-gated-cache.js';
import { inputDirOf, removeUnusedInputFiles } from './input-files.js';

const SELECT_JOB = `select ${JOB_COLUMNS} from jobs where id = ?`;
type InputRow = { input: Buffer; file: string | null };

export class SqliteStore implements Store {
  readonly backend = 'sqlite' as const;
  readonly db: Database.Database;
  readonly inputDir: string;

  constructor(readonly dataDir: string) {
    // The file holds key hashes and callback signing secrets: readable by the service's user only.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    this.inputDir = inputDirOf(dataDir);
    mkdirSync(this.inputDir, { recursive: true, mode: 0o700 });
    const file = join(dataDir, 'evident-jobs.sqlite');
    this.db = new Database(file);
    chmodSync(file, 0o600);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.rows = new ChangeGatedCache(this.db);
  }

  /** Keys and jobs as the API reads them on every request, until the database changes. */
  private readonly rows: ChangeGatedCache;

  private statements = new Map<string, Database.Statement>();
  /** Prepared statements are cached: preparing costs more than running most of these queries. */
  private stmt(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  async migrate(): Promise<void> {
    this.db.exec(`
      create table if not exists api_keys (
        key_id text primary key, name text not null, plan text not null, rpm integer, concurrency integer,
        key_hash text not null unique, signing_secret text not null, created_at integer not null, revoked_at integer);
      create table if not exists jobs (
        seq integer primary key autoincrement, id text not null unique, key_id text not null references api_keys(key_id),
        kind text not null, status text not null, phase text not null, attempts integer not null default 0,
        max_attempts integer not null, run_after integer not null, created_at integer not null, started_at integer,
        completed_at integer, progress_stage text, progress_percent real, error_code text, error_message text,
        estimate_low real not null, estimate_high real not null, callback_url text, callback_due integer);
      create index if not exists jobs_by_key on jobs (key_id, seq);
      create index if not exists jobs_queue on jobs (phase, run_after) where status = 'processing';
      create index if not exists jobs_active on jobs (seq) where status = 'processing';
      create index if not exists jobs_callbacks on jobs (callback_due) where callback_due is not null;
      create table if not exists job_targets (
        seq integer primary key autoincrement, job_id text not null references jobs(id), key_id text not null, data text not null);
      create index if not exists targets_by_key on job_targets (key_id, seq);
      -- Inputs and results (tens of MB) live apart from the job row: SQLite rewrites a whole row, overflow pages
      -- included, on every update, and a job's row is updated at each progress step.
      create table if not exists job_inputs (job_id text primary key references jobs(id), input blob not null);
      create table if not exists job_results (job_id text primary key references jobs(id), result blob not null);
      -- Idempotency-Key records of submissions, per API key; expired ones are purged as new ones are made.
      create table if not exists idempotency_keys (
        key_id text not null, idem_key text not null, fingerprint text not null, job_id text not null,
        response text, created_at integer not null, primary key (key_id, idem_key));
      create index if not exists idempotency_by_age on idempotency_keys (created_at);
      -- Server secrets (the results-link signing key), in this 0600 file; never sent or logged.
      create table if not exists service_secrets (name text primary key, value blob not null);
      create table if not exists result_link_generations (job_id text primary key, generation integer not null);
    `);
    // A store made before the split keeps them in the row: moved once.
    const columns = this.db.pragma('table_info(jobs)') as Array<{ name: string }>;
    if (columns.some((c) => c.name === 'input')) {
      this.db.transaction(() => {
        this.db.exec(`insert or ignore into job_inputs (job_id, input) select id, input from jobs;
          insert or ignore into job_results (job_id, result) select id, result from jobs where result is not null;
          alter table jobs drop column input;
          alter table jobs drop column result;`);
      })();
    }
    const inputColumns = this.db.pragma('table_info(job_inputs)') as Array<{ name: string }>;
    if (!inputColumns.some((c) => c.name === 'input_file'))
      this.db.exec(`alter table job_inputs add column input_file text`);
    // At start no submission is in flight (one process owns the data directory): a file no job names is waste.
    const used = this.db.prepare(`select input_file from job_inputs where input_file is not null`).pluck().all();
    removeUnusedInputFiles(this.inputDir, new Set(used as string[]));
  }

  async close(): Promise<void> {
    this.db.close();
  }

  async createKey(k: NewKey): Promise<CreatedKey> {
    const key = newApiKey();
    const created: CreatedKey = { key_id: newKeyId(), key, plan: k.plan, signing_secret: newSigningSecret() };
    this.stmt(`insert into api_keys (key_id, name, plan, rpm, concurrency, key_hash, signing_secret, created_at)
                values (?, ?, ?, ?, ?, ?, ?, ?)`).run(
      created.key_id,
      k.name,
      k.plan,
      k.rpm ?? null,
      k.concurrency ?? null,
      hashApiKey(key),
      created.signing_secret,
      Date.now(),
    );
    return created;
  }

  async listKeys(): Promise<KeyRecord[]> {
    return this.stmt(
      `select key_id, name, plan, rpm, concurrency, created_at, revoked_at from api_keys order by created_at`,
    ).all() as KeyRecord[];
  }

  async revokeKey(keyId: string): Promise<boolean> {
    return (
      this.stmt(`update api_keys set revoked_at = ? where key_id = ? and revoked_at is null`).run(Date.now(), keyId)
        .changes > 0
    );
  }

  async findKeyByHash(hash: string): Promise<KeyRecord | undefined> {
    return this.rows.get(
      `key:${hash}`,
      () =>
        this.stmt(
          `select key_id, name, plan, rpm, concurrency, created_at, revoked_at from api_keys where key_hash = ?`,
        ).get(hash) as KeyRecord | undefined,
    );
  }

  async signingSecretOf(keyId: string): Promise<string | undefined> {
    const r = this.stmt(`select signing_secret from api_keys where key_id = ?`).get(keyId) as
      | { signing_secret: string }
      | undefined;
    return r?.signing_secret;
  }

  async findKeyById(keyId: string): Promise<KeyRecord | undefined> {
    return this.stmt(
      `select key_id, name, plan, rpm, concurrency, created_at, revoked_at from api_keys where key_id = ?`,
    ).get(keyId) as KeyRecord | undefined;
  }

  async resultLinkSecret(): Promise<Buffer> {
    this.stmt(`insert or ignore into service_secrets (name, value) values ('result_links', ?)`).run(randomBytes(32));
    return (this.stmt(`select value from service_secrets where name = 'result_links'`).get() as { value: Buffer })
      .value;
  }

  async resultLinkGeneration(jobId: string): Promise<number> {
    const r = this.stmt(`select generation from result_link_generations where job_id = ?`).get(jobId) as
      | { generation: number }
      | undefined;
    return r?.generation ?? 0;
  }

  async revokeResultLinks(jobId: string): Promise<number> {
    return (
      this.stmt(`insert into result_link_generations (job_id, generation) values (?, 1)
                  on conflict (job_id) do update set generation = generation + 1 returning generation`).get(jobId) as {
        generation: number;
      }
    ).generation;
  }

  async insertJob(job: NewJob, limit: number, idempotency?: IdempotencyClaim) {
    const tx = this.db.transaction(() => {
      if (idempotency) {
        const existing = this.findIdempotencySync(job.key_id, idempotency.key, idempotency.expiredAt);
        if (existing) return { ok: false as const, existing };
        this.stmt(`delete from idempotency_keys where key_id = ? and idem_key = ?`).run(job.key_id, idempotency.key);
        // A bounded purge per insert keeps the table to about a day of keys without a sweeper.
        this.stmt(`delete from idempotency_keys where rowid in
                    (select rowid from idempotency_keys where created_at <= ? limit 100)`).run(idempotency.expiredAt);
      }
      const { n } = this.stmt(`select count(*) as n from jobs where key_id = ? and status = 'processing'`).get(
        job.key_id,
      ) as { n: number };
      if (n >= limit) return { ok: false as const, processing: n };
      const now = Date.now();
      this.stmt(`insert into jobs (id, key_id, kind, status, phase, max_attempts, run_after, created_at, estimate_low,
                  estimate_high, callback_url) values (?, ?, ?, 'processing', 'queued', ?, ?, ?, ?, ?, ?)`).run(
        job.id,
        job.key_id,
        job.kind,
        job.max_attempts,
        now,
        now,
        job.estimate_low,
        job.estimate_high,
        job.callback_url,
      );
      const file = job.input_file ?? null;
      this.stmt(`insert into job_inputs (job_id, input, input_file) values (?, ?, ?)`).run(job.id, job.input, file);
      if (idempotency) {
        this.stmt(`insert into idempotency_keys (key_id, idem_key, fingerprint, job_id, created_at)
                    values (?, ?, ?, ?, ?)`).run(job.key_id, idempotency.key, idempotency.fingerprint, job.id, now);
      }
      return { ok: true as const, job: this.getJobSync(job.id)! };
    });
    return tx.immediate();
  }

  private findIdempotencySync(keyId: string, key: string, expiredAt: number): IdempotencyRecord | undefined {
    return this.stmt(`select fingerprint, job_id, response, created_at from idempotency_keys
                      where key_id = ? and idem_key = ? and created_at > ?`).get(keyId, key, expiredAt) as
      | IdempotencyRecord
      | undefined;
  }

  async findIdempotency(keyId: string, key: string, expiredAt: number) {
    return this.findIdempotencySync(keyId, key, expiredAt);
  }

  async saveIdempotentResponse(keyId: string, key: string, jobId: string, response: string) {
    this.stmt(`update idempotency_keys set response = ? where key_id = ? and idem_key = ? and job_id = ?`).run(
      response,
      keyId,
      key,
      jobId,
    );
  }

  async forgetIdempotency(keyId: string, key: string, jobId: string) {
    this.stmt(`delete from idempotency_keys where key_id = ? and idem_key = ? and job_id = ?`).run(keyId, key, jobId);
  }

  private getJobSync(id: string): JobRecord | undefined {
    return this.stmt(SELECT_JOB).get(id) as JobRecord | undefined;
  }

  async getJob(id: string, sameStateAs?: KeyRecord) {
    return this.rows.get(`job:${id}`, () => this.getJobSync(id), sameStateAs);
  }

  async listJobs(keyId: string, q: ListJobsQuery): Promise<JobRecord[]> {
    const where = ['key_id = ?'];
    const args: unknown[] = [keyId];
    if (q.status) {
      where.push('status = ?');
      args.push(q.status);
    }
    if (q.kind) {
      where.push('kind = ?');
      args.push(q.kind);
    }
    if (q.before !== undefined) {
      where.push('seq < ?');
      args.push(q.before);
    }
    args.push(q.limit);
    return this.stmt(`select ${JOB_COLUMNS} from jobs where ${where.join(' and ')} order by seq desc limit ?`).all(
      ...args,
    ) as JobRecord[];
  }

  async activeJobs(limit: number): Promise<ActiveJob[]> {
    return this.stmt(
      `select id, phase, started_at, estimate_low, estimate_high from jobs where status = 'processing'
       order by seq limit ?`,
    ).all(limit) as ActiveJob[];
  }

  async getResult(id: string) {
    const r = this.stmt(`select result from job_results where job_id = ?`).get(id) as
      | { result: Buffer | null }
      | undefined;
    return r?.result ?? undefined;
  }

  async cancelJob(id: string, keyId: string) {
    const tx = this.db.transaction(() => {
      const r = this.stmt(`select status from jobs where id = ? and key_id = ?`).get(id, keyId) as
        | { status: JobStatus }
        | undefined;
      if (!r) return 'not_found' as const;
      if (r.status !== 'processing') return 'finished' as const;
      this.stmt(`update jobs set status = 'cancelled', phase = 'done', completed_at = ? where id = ?`).run(
        Date.now(),
        id,
      );
      return 'cancelled' as const;
    });
    return tx.immediate();
  }

  async listTargets(keyId: string, limit: number, before?: number): Promise<TargetRow[]> {
    const rows =
      this.stmt(`select seq, job_id, data from job_targets where key_id = ? ${before !== undefined ? 'and seq < ?' : ''}
                order by seq desc limit ?`).all(
        ...(before !== undefined ? [keyId, before, limit] : [keyId, limit]),
      ) as Array<{ seq: number; job_id: string; data: string }>;
    return rows.map((r) => ({ seq: r.seq, job_id: r.job_id, target: JSON.parse(r.data) }));
  }

  async claimNext(now: number): Promise<Attempt | undefined> {
    const tx = this.db.transaction(() => {
      const r = this.stmt(
        `select id from jobs where status = 'processing' and phase = 'queued' and run_after <= ? order by seq limit 1`,
      ).get(now) as { id: string } | undefined;
      return r ? this.startAttemptSync(r.id, now) : undefined;
    });
    return tx.immediate();
  }

  private startAttemptSync(id: string, now: number): Attempt | undefined {
    const changed =
      this.stmt(`update jobs set phase = 'running', attempts = attempts + 1, started_at = coalesce(started_at, ?)
                where id = ? and status = 'processing'`).run(now, id).changes;
    if (!changed) return undefined;
    const r = this.stmt(`select input, input_file as file from job_inputs where job_id = ?`).get(id) as InputRow;
    // A file's input is read by the job's thread (input-files.ts), not here.
    const path = r.file !== null ? { inputPath: join(this.inputDir, r.file) } : {};
    return { job: this.getJobSync(id)!, input: r.input, ...path };
  }

  async startAttempt(id: string, now: number) {
    return this.db.transaction(() => this.startAttemptSync(id, now)).immediate();
  }

  async setProgress(id: string, stage: string, percent: number) {
    this.stmt(`update jobs set progress_stage = ?, progress_percent = ? where id = ? and status = 'processing'`).run(
      stage,
      percent,
      id,
    );
  }

  async completeJob(id: string, result: Buffer, targets: Array<Record<string, unknown>>, now: number) {
    return this.db
      .transaction(() => {
        const r = this.stmt(`update jobs set status = 'completed', phase = 'done', completed_at = ?,
                    progress_percent = 100, error_code = null, error_message = null,
                    callback_due = case when callback_url is null then null else ? end
                    where id = ? and status = 'processing'`).run(now, now, id);
        if (!r.changes) return false;
        this.stmt(`insert or replace into job_results (job_id, result) values (?, ?)`).run(id, result);
        const job = this.getJobSync(id)!;
        const ins = this.stmt(`insert into job_targets (job_id, key_id, data) values (?, ?, ?)`);
        for (const t of [...targets].reverse()) ins.run(id, job.key_id, JSON.stringify(t));
        return true;
      })
      .immediate();
  }

  async failJob(id: string, code: string, message: string, now: number) {
    return (
      this.stmt(`update jobs set status = 'failed', phase = 'done', completed_at = ?, error_code = ?, error_message = ?,
                  callback_due = case when callback_url is null then null else ? end
                  where id = ? and status = 'processing'`).run(now, code, message, now, id).changes > 0
    );
  }

  async retryLater(id: string, runAfter: number, message: string) {
    return (
      this.stmt(`update jobs set phase = 'queued', run_after = ?, error_message = ?, progress_stage = 'waiting to retry',
                  progress_percent = 0 where id = ? and status = 'processing'`).run(runAfter, message, id).changes > 0
    );
  }

  async releaseAttempt(id: string) {
    this.stmt(`update jobs set phase = 'queued', attempts = max(attempts - 1, 0), run_after = ?, progress_stage = 'queued',
                progress_percent = 0 where id = ? and status = 'processing' and phase = 'running'`).run(Date.now(), id);
  }

  async recoverOrphans(now: number) {
    return this.db
      .transaction(() => {
        const rows = this.stmt(
          `select id, attempts, max_attempts from jobs where status = 'processing' and phase = 'running'`,
        ).all() as Array<{ id: string; attempts: number; max_attempts: number }>;
        const requeued: string[] = [];
        const failed: string[] = [];
        for (const r of rows) {
          if (r.attempts >= r.max_attempts) {
            this.stmt(`update jobs set status = 'failed', phase = 'done', completed_at = ?, error_code = 'worker_lost',
                        error_message = ?, callback_due = case when callback_url is null then null else ? end where id = ?`).run(
              now,
              `the process running this job stopped during each of its ${r.attempts} attempt(s)`,
              now,
              r.id,
            );
            failed.push(r.id);
          } else {
            this.stmt(`update jobs set phase = 'queued', run_after = ?, progress_stage = 'waiting to retry',
                        progress_percent = 0 where id = ?`).run(now, r.id);
            requeued.push(r.id);
          }
        }
        return { requeued, failed };
      })
      .immediate();
  }

  async claimCallbacks(now: number, leaseMs: number, id?: string, limit = 20): Promise<string[]> {
    const rows = (
      id !== undefined
        ? this.stmt(`update jobs set callback_due = ? where id = ? and callback_due <= ? returning id`).all(
            now + leaseMs,
            id,
            now,
          )
        : this.stmt(`update jobs set callback_due = ? where id in (select id from jobs where callback_due <= ? order by callback_due limit ?)
                     returning id`).all(now + leaseMs, now, limit)
    ) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  async finishCallback(id: string) {
    this.stmt(`update jobs set callback_due = null where id = ?`).run(id);
  }

  async heartbeat(id: string) {
    // One process owns an embedded store; a dead server is detected at its next start (recoverOrphans).
    return this.statusOf(id);
  }

  async statusOf(id: string) {
    return (this.stmt(`select status from jobs where id = ?`).get(id) as { status: JobStatus } | undefined)?.status;
  }
}
