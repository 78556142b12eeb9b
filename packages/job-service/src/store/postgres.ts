// Scale-out store: the same contract on PostgreSQL, shared by API instances and worker processes.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { hashApiKey, newApiKey, newKeyId, newSigningSecret } from '../ids.js';
// Deliberate copy: sqlite.ts imports the same list; both implement Store over the same record types.
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
import { MIGRATION_LOCK, POSTGRES_SCHEMA, types } from './postgres-schema.js';

export class PostgresStore implements Store {
  readonly backend = 'postgres' as const;
  readonly pool: pg.Pool;

  constructor(
    readonly url: string,
    poolSize = 10,
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: poolSize, types });
    // An idle client losing its connection must not crash the process.
    this.pool.on('error', () => {});
  }

  private async q<T>(sql: string, args: unknown[] = [], client: pg.PoolClient | pg.Pool = this.pool): Promise<T[]> {
    return (await client.query(sql, args)).rows as T[];
  }

  private async tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('begin');
      const r = await fn(c);
      await c.query('commit');
      return r;
    } catch (e) {
      await c.query('rollback').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  }

  async migrate(): Promise<void> {
    await this.tx(async (c) => {
      await c.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await c.query(POSTGRES_SCHEMA);
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async createKey(k: NewKey): Promise<CreatedKey> {
    const key = newApiKey();
    const created: CreatedKey = { key_id: newKeyId(), key, plan: k.plan, signing_secret: newSigningSecret() };
    await this.q(
      `insert into evident_api_keys (key_id, name, plan, rpm, concurrency, key_hash, signing_secret, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        created.key_id,
        k.name,
        k.plan,
        k.rpm ?? null,
        k.concurrency ?? null,
        hashApiKey(key),
        created.signing_secret,
        Date.now(),
      ],
    );
    return created;
  }

  async listKeys() {
    return this.q<KeyRecord>(
      `select key_id, name, plan, rpm, concurrency, created_at, revoked_at from evident_api_keys order by created_at`,
    );
  }

  async revokeKey(keyId: string) {
    const r = await this.pool.query(
      `update evident_api_keys set revoked_at = $1 where key_id = $2 and revoked_at is null`,
      [Date.now(), keyId],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async findKeyByHash(hash: string) {
    const [r] = await this.q<KeyRecord>(
      `select key_id, name, plan, rpm, concurrency, created_at, revoked_at from evident_api_keys where key_hash = $1`,
      [hash],
    );
    return r;
  }

  async signingSecretOf(keyId: string) {
    const [r] = await this.q<{ signing_secret: string }>(
      `select signing_secret from evident_api_keys where key_id = $1`,
      [keyId],
    );
    return r?.signing_secret;
  }

  async findKeyById(keyId: string) {
    if (hasNul(keyId)) return undefined;
    const [r] = await this.q<KeyRecord>(
      `select key_id, name, plan, rpm, concurrency, created_at, revoked_at from evident_api_keys where key_id = $1`,
      [keyId],
    );
    return r;
  }

  async resultLinkSecret(): Promise<Buffer> {
    // Every instance proposes one; the first stored is everyone's.
    await this.q(
      `insert into evident_service_secrets (name, value) values ('result_links', $1) on conflict (name) do nothing`,
      [randomBytes(32)],
    );
    const [r] = await this.q<{ value: Buffer }>(
      `select value from evident_service_secrets where name = 'result_links'`,
    );
    return r!.value;
  }

  async resultLinkGeneration(jobId: string) {
    if (hasNul(jobId)) return 0;
    const [r] = await this.q<{ generation: number }>(
      `select generation from evident_result_link_generations where job_id = $1`,
      [jobId],
    );
    return r?.generation ?? 0;
  }

  async revokeResultLinks(jobId: string) {
    const [r] = await this.q<{ generation: number }>(
      `insert into evident_result_link_generations (job_id, generation) values ($1, 1)
       on conflict (job_id) do update set generation = evident_result_link_generations.generation + 1
       returning generation`,
      [jobId],
    );
    return r!.generation;
  }

  async insertJob(job: NewJob, limit: number, idempotency?: IdempotencyClaim) {
    return this.tx(async (c) => {
      // Serialises submissions of one key so that two concurrent requests cannot both pass the limit, nor both
      // record one idempotency key (the primary key would refuse the second anyway).
      await c.query(`select pg_advisory_xact_lock(hashtext($1))`, [job.key_id]);
      if (idempotency) {
        const existing = await this.findIdempotency(job.key_id, idempotency.key, idempotency.expiredAt, c);
        if (existing) return { ok: false as const, existing };
        await c.query(`delete from evident_idempotency_keys where key_id = $1 and idem_key = $2`, [
          job.key_id,
          idempotency.key,
        ]);
        // A bounded purge per insert; rows another purge holds are skipped, so two purges never wait on each other.
        await c.query(
          `delete from evident_idempotency_keys where ctid in (select ctid from evident_idempotency_keys
           where created_at <= $1 limit 100 for update skip locked)`,
          [idempotency.expiredAt],
        );
      }
      const [counted] = await this.q<{ n: number }>(
        `select count(*)::int as n from evident_jobs where key_id = $1 and status = 'processing'`,
        [job.key_id],
        c,
      );
      const n = counted!.n;
      if (n >= limit) return { ok: false as const, processing: n };
      const now = Date.now();
      const [row] = await this.q<JobRecord>(
        `insert into evident_jobs (id, key_id, kind, status, phase, max_attempts, run_after, created_at, estimate_low,
         estimate_high, callback_url, input) values ($1, $2, $3, 'processing', 'queued', $4, $5, $5, $6, $7, $8, $9)
         returning ${JOB_COLUMNS}`,
        [
          job.id,
          job.key_id,
          job.kind,
          job.max_attempts,
          now,
          job.estimate_low,
          job.estimate_high,
          job.callback_url,
          job.input,
        ],
        c,
      );
      if (idempotency) {
        await c.query(
          `insert into evident_idempotency_keys (key_id, idem_key, fingerprint, job_id, created_at)
           values ($1, $2, $3, $4, $5)`,
          [job.key_id, idempotency.key, idempotency.fingerprint, job.id, now],
        );
      }
      return { ok: true as const, job: row! }; // insert … returning yields the row
    });
  }

  async findIdempotency(
    keyId: string,
    key: string,
    expiredAt: number,
    client: pg.PoolClient | pg.Pool = this.pool,
  ): Promise<IdempotencyRecord | undefined> {
    const [r] = await this.q<IdempotencyRecord>(
      `select fingerprint, job_id, response, created_at from evident_idempotency_keys
       where key_id = $1 and idem_key = $2 and created_at > $3`,
      [keyId, key, expiredAt],
      client,
    );
    return r;
  }

  async saveIdempotentResponse(keyId: string, key: string, jobId: string, response: string) {
    await this.q(
      `update evident_idempotency_keys set response = $1 where key_id = $2 and idem_key = $3 and job_id = $4`,
      [response, keyId, key, jobId],
    );
  }

  async forgetIdempotency(keyId: string, key: string, jobId: string) {
    await this.q(`delete from evident_idempotency_keys where key_id = $1 and idem_key = $2 and job_id = $3`, [
      keyId,
      key,
      jobId,
    ]);
  }

  async getJob(id: string) {
    if (hasNul(id)) return undefined;
    const [r] = await this.q<JobRecord>(`select ${JOB_COLUMNS} from evident_jobs where id = $1`, [id]);
    return r;
  }

  async listJobs(keyId: string, q: ListJobsQuery) {
    const where = ['key_id = $1'];
    const args: unknown[] = [keyId];
    if (q.status) {
      args.push(q.status);
      where.push(`status = $${args.length}`);
    }
    if (q.kind) {
      args.push(q.kind);
      where.push(`kind = $${args.length}`);
    }
    if (q.before !== undefined) {
      args.push(q.before);
      where.push(`seq < $${args.length}`);
    }
    args.push(q.limit);
    return this.q<JobRecord>(
      `select ${JOB_COLUMNS} from evident_jobs where ${where.join(' and ')} order by seq desc limit $${args.length}`,
      args,
    );
  }

  async activeJobs(limit: number): Promise<ActiveJob[]> {
    return this.q<ActiveJob>(
      `select id, phase, started_at, estimate_low, estimate_high from evident_jobs where status = 'processing'
       order by seq limit $1`,
      [limit],
    );
  }

  async getResult(id: string) {
    if (hasNul(id)) return undefined;
    const [r] = await this.q<{ result: Buffer | null }>(`select result from evident_jobs where id = $1`, [id]);
    return r?.result ?? undefined;
  }

  async cancelJob(id: string, keyId: string) {
    if (hasNul(id)) return 'not_found' as const;
    const r = await this.pool.query(
      `update evident_jobs set status = 'cancelled', phase = 'done', completed_at = $3
       where id = $1 and key_id = $2 and status = 'processing'`,
      [id, keyId, Date.now()],
    );
    if (r.rowCount) return 'cancelled' as const;
    const [e] = await this.q(`select 1 from evident_jobs where id = $1 and key_id = $2`, [id, keyId]);
    return e ? ('finished' as const) : ('not_found' as const);
  }

  async listTargets(keyId: string, limit: number, before?: number): Promise<TargetRow[]> {
    const rows = await this.q<{ seq: number; job_id: string; data: Record<string, unknown> }>(
      `select seq, job_id, data from evident_job_targets where key_id = $1 and ($2::bigint is null or seq < $2)
       order by seq desc limit $3`,
      [keyId, before ?? null, limit],
    );
    return rows.map((r) => ({ seq: r.seq, job_id: r.job_id, target: r.data }));
  }

  async claimNext(now: number): Promise<Attempt | undefined> {
    const [r] = await this.q<{ id: string }>(
      `select id from evident_jobs where status = 'processing' and phase = 'queued' and run_after <= $1
       order by seq limit 1 for update skip locked`,
      [now],
    );
    return r ? this.startAttempt(r.id, now) : undefined;
  }

  async startAttempt(id: string, now: number, deliveryId?: string): Promise<Attempt | undefined> {
    const [r] = await this.q<JobRecord & { input: Buffer }>(
      `update evident_jobs set phase = 'running', attempts = attempts + 1, started_at = coalesce(started_at, $2),
       heartbeat_at = $2, delivery_id = $3
       where id = $1 and status = 'processing' returning ${JOB_COLUMNS}, input`,
      [id, now, deliveryId ?? null],
    );
    if (!r) return undefined;
    const { input, ...job } = r;
    return { job, input };
  }

  async setProgress(id: string, stage: string, percent: number) {
    await this.pool.query(
      `update evident_jobs set progress_stage = $2, progress_percent = $3 where id = $1 and status = 'processing'`,
      [id, stage, percent],
    );
  }

  async completeJob(id: string, result: Buffer, targets: Array<Record<string, unknown>>, now: number) {
    return this.tx(async (c) => {
      const [job] = await this.q<{ key_id: string }>(
        `update evident_jobs set status = 'completed', phase = 'done', completed_at = $2, result = $3, progress_percent = 100,
         error_code = null, error_message = null, callback_due = case when callback_url is null then null else $2::bigint end
         where id = $1 and status = 'processing' returning key_id`,
        [id, now, result],
        c,
      );
      if (!job) return false;
      for (const t of [...targets].reverse()) {
        await c.query(`insert into evident_job_targets (job_id, key_id, data) values ($1, $2, $3)`, [
          id,
          job.key_id,
          JSON.stringify(t),
        ]);
      }
      return true;
    });
  }

  async failJob(id: string, code: string, message: string, now: number) {
    const r = await this.pool.query(
      `update evident_jobs set status = 'failed', phase = 'done', completed_at = $2, error_code = $3, error_message = $4,
       callback_due = case when callback_url is null then null else $2::bigint end
       where id = $1 and status = 'processing'`,
      [id, now, code, message],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async retryLater(id: string, runAfter: number, message: string) {
    const r = await this.pool.query(
      `update evident_jobs set phase = 'queued', run_after = $2, error_message = $3, progress_stage = 'waiting to retry',
       progress_percent = 0 where id = $1 and status = 'processing'`,
      [id, runAfter, message],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async releaseAttempt(): Promise<void> {
    // Not used: with PostgreSQL every delivery counts, so that ours and pg-boss's retry budgets agree.
  }

  async failOrphansOfQueue(olderThan: number, now: number): Promise<string[]> {
    const rows = await this.q<{ id: string }>(
      `update evident_jobs j set status = 'failed', phase = 'done', completed_at = $2, error_code = 'worker_lost',
         error_message = 'the queue gave up on this job after its worker stopped repeatedly',
         callback_due = case when callback_url is null then null else $2::bigint end
       where j.status = 'processing' and j.created_at < $1
         and not exists (select 1 from pgboss.job q where q.data->>'job_id' = j.id and q.state in ('created', 'retry', 'active'))
       returning j.id`,
      [olderThan, now],
    );
    return rows.map((r) => r.id);
  }

  async recoverOrphans(): Promise<{ requeued: string[]; failed: string[] }> {
    // With PostgreSQL the queue (pg-boss) redelivers jobs whose worker died once they expire.
    return { requeued: [], failed: [] };
  }

  async claimCallbacks(now: number, leaseMs: number, id?: string, limit = 20): Promise<string[]> {
    const rows =
      id !== undefined
        ? await this.q<{ id: string }>(
            `update evident_jobs set callback_due = $1 where id = $2 and callback_due <= $3 returning id`,
            [now + leaseMs, id, now],
          )
        : await this.q<{ id: string }>(
            `update evident_jobs set callback_due = $1 where id in (
               select id from evident_jobs where callback_due <= $2 order by callback_due limit $3 for update skip locked)
             returning id`,
            [now + leaseMs, now, limit],
          );
    return rows.map((r) => r.id);
  }

  async finishCallback(id: string) {
    await this.pool.query(`update evident_jobs set callback_due = null where id = $1`, [id]);
  }

  async heartbeat(id: string, now: number) {
    const [r] = await this.q<{ status: JobStatus }>(
      `update evident_jobs set heartbeat_at = $2 where id = $1 returning status`,
      [id, now],
    );
    return r?.status;
  }

  async reclaimStale(olderThan: number) {
    return this.q<{ id: string; kind: string; delivery_id: string }>(
      `update evident_jobs set phase = 'queued', heartbeat_at = null, progress_stage = 'waiting to retry', progress_percent = 0
       where status = 'processing' and phase = 'running' and heartbeat_at < $1 and delivery_id is not null
       returning id, kind, delivery_id`,
      [olderThan],
    );
  }

  async statusOf(id: string) {
    const [r] = await this.q<{ status: JobStatus }>(`select status from evident_jobs where id = $1`, [id]);
    return r?.status;
  }
}

/** PostgreSQL text cannot hold NUL (the API refuses it first; a store caller that did not is told "no such job"). */
function hasNul(s: string): boolean {
  return s.includes('\u0000');
}
