// The PostgreSQL store's tables and how its columns read (postgres.ts holds the queries). Created if absent, under
// an advisory lock, by every instance at start: instances sharing a database may start together.
import pg from 'pg';

/** The advisory lock the migration holds (a constant shared by every instance). */
export const MIGRATION_LOCK = 727274001;

// int8 (counts, epoch milliseconds) as JS numbers: all values stay far below 2^53.
export const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export const POSTGRES_SCHEMA = `
  create table if not exists evident_api_keys (
    key_id text primary key, name text not null, plan text not null, rpm integer, concurrency integer,
    key_hash text not null unique, signing_secret text not null, created_at bigint not null, revoked_at bigint);
  create table if not exists evident_jobs (
    seq bigserial primary key, id text not null unique, key_id text not null references evident_api_keys(key_id),
    kind text not null, status text not null, phase text not null, attempts integer not null default 0,
    max_attempts integer not null, run_after bigint not null, created_at bigint not null, started_at bigint,
    completed_at bigint, progress_stage text, progress_percent real, error_code text, error_message text,
    estimate_low double precision not null, estimate_high double precision not null, callback_url text, callback_due bigint,
    heartbeat_at bigint, delivery_id text,
    input bytea not null, result bytea);
  create index if not exists evident_jobs_by_key on evident_jobs (key_id, seq);
  create index if not exists evident_jobs_active on evident_jobs (seq) where status = 'processing';
  create index if not exists evident_jobs_callbacks on evident_jobs (callback_due) where callback_due is not null;
  create table if not exists evident_job_targets (
    seq bigserial primary key, job_id text not null references evident_jobs(id), key_id text not null, data jsonb not null);
  create index if not exists evident_targets_by_key on evident_job_targets (key_id, seq);
  create table if not exists evident_idempotency_keys (
    key_id text not null, idem_key text not null, fingerprint text not null, job_id text not null,
    response text, created_at bigint not null, primary key (key_id, idem_key));
  create index if not exists evident_idempotency_by_age on evident_idempotency_keys (created_at);
  create table if not exists evident_service_secrets (name text primary key, value bytea not null);
  create table if not exists evident_result_link_generations (job_id text primary key, generation integer not null);
`;
