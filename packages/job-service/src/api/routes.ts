// The /v1 routes. Submission routes come from the registered job kinds.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createGunzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { jobKinds } from '../kinds/registry.js';
import { ApiError, InvalidParametersError, jobNotFound } from '../errors.js';
import { newJobId } from '../ids.js';
import { formatEstimate } from '../estimate.js';
import { checkCallbackUrl } from '../callbacks/address.js';
import type { JobRecord, JobStatus } from '../store/types.js';
import type { AppDeps } from './app.js';
import { statusDocument } from '../wire/status.js';
import { RawJsonBody } from '../wire/raw-body.js';
import {
  Accepted, JobIdParams, ListJobsQuery, PageQuery, ResultsQuery, StatusDoc, errorResponses, submitBodySchema,
} from '../wire/schemas.js';

const encodeCursor = (seq: number) => Buffer.from(`s${seq}`).toString('base64url');
function decodeCursor(c: string | undefined, where: string): number | undefined {
  if (c === undefined) return undefined;
  const m = /^s(\d{1,15})$/.exec(Buffer.from(c, 'base64url').toString('utf8'));
  if (!m) throw new InvalidParametersError([{ path: `${where}/cursor`, message: 'is not a cursor this API returned' }]);
  return Number(m[1]);
}

export async function registerRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { store, config } = deps;
  const origin = (req: FastifyRequest) => config.publicUrl?.replace(/\/$/, '') ?? `${req.protocol}://${req.host}`;
  const keyOf = (req: FastifyRequest) => req.apiKey!;

  async function ownJob(req: FastifyRequest, id: string): Promise<JobRecord> {
    const job = await store.getJob(id);
    // Another key's job is answered exactly like a missing one.
    if (!job || job.key_id !== keyOf(req).key_id) throw jobNotFound();
    return job;
  }

  /** Seconds until the first of the key's processing jobs is expected to finish (low estimate), 1..3600. */
  async function soonestFinish(keyId: string): Promise<number> {
    const jobs = await store.listJobs(keyId, { status: 'processing', limit: 100 });
    const now = Date.now();
    const left = jobs.map((j) => ((j.started_at ?? now) + j.estimate_low * 1000 - now) / 1000);
    return Math.min(3600, Math.max(1, Math.ceil(left.length ? Math.min(...left) : 30)));
  }

  for (const kind of jobKinds) {
    if (kind.id === 'demo' && !config.demoJobs) continue;
    app.post(
      kind.route,
      {
        schema: {
          summary: `Submit a ${kind.id} job`,
          tags: ['jobs'],
          body: submitBodySchema(kind.requestSchema),
          response: { 202: Accepted, ...errorResponses(400, 401, 413, 429, 500) },
        },
      },
      async (req, reply) => {
        const key = keyOf(req);
        const checkCallback = async (url: string | undefined) => {
          const problem = url === undefined ? undefined : await checkCallbackUrl(url, config.allowPrivateCallbacks);
          if (problem) throw new InvalidParametersError([{ path: '/callback_url', message: problem }]);
        };
        let callback_url: string | undefined;
        let task;
        if (req.body instanceof RawJsonBody) {
          const raw = req.body.bytes;
          // Move the bytes to the thread when they own their memory; copy otherwise.
          const own = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength ? raw : Buffer.from(raw);
          task = deps.preparePool.run({ type: 'prepare-raw', kind: kind.id, raw: own }, undefined, [own.buffer as ArrayBuffer]);
        } else {
          const { callback_url: cb, ...request } = req.body as Record<string, unknown> & { callback_url?: string };
          callback_url = cb;
          await checkCallback(callback_url);
          task = deps.preparePool.run({ type: 'prepare', kind: kind.id, request });
        }
        // A refused request comes back from the thread as the kind's own typed error: it is the answer.
        const prepared = await task.result;
        if (prepared.type !== 'prepared') throw new Error('unexpected thread answer');
        if (req.body instanceof RawJsonBody) {
          callback_url = prepared.callback_url;
          await checkCallback(callback_url);
        }
        const [low, high] = prepared.estimate;
        const inserted = await store.insertJob(
          {
            id: newJobId(kind.id),
            key_id: key.key_id,
            kind: kind.id,
            max_attempts: config.maxAttempts,
            estimate_low: low,
            estimate_high: high,
            callback_url: callback_url ?? null,
            input: Buffer.from(prepared.input),
          },
          key.limits.concurrency,
        );
        if (!inserted.ok) {
          throw new ApiError(
            429,
            'concurrent_job_limit',
            `this key already has ${inserted.processing} job(s) processing, the limit of its plan (${key.plan}); retry when one finishes`,
            { retryAfter: await soonestFinish(key.key_id) },
          );
        }
        const job = inserted.job;
        try {
          await deps.enqueue(job);
        } catch (e) {
          await store.failJob(job.id, 'queue_unavailable', 'the job could not be queued', Date.now());
          throw e;
        }
        const webhook_url = `${origin(req)}/v1/jobs/${job.id}`;
        reply.header('location', webhook_url);
        return reply.status(202).send({
          job_id: job.id,
          status: 'processing' as const,
          estimated_time: formatEstimate([low, high]),
          estimated_seconds: [Math.floor(low), Math.ceil(high)],
          webhook_url,
        });
      },
    );
  }

  app.get(
    '/v1/jobs/:job_id',
    { schema: { summary: 'Status of a job', tags: ['jobs'], params: JobIdParams, response: { 200: StatusDoc, ...errorResponses(401, 404, 429) } } },
    async (req) => statusDocument(await ownJob(req, (req.params as { job_id: string }).job_id), origin(req)),
  );

  app.delete(
    '/v1/jobs/:job_id',
    { schema: { summary: 'Cancel a job that has not finished', tags: ['jobs'], params: JobIdParams, response: { 200: StatusDoc, ...errorResponses(401, 404, 409, 429) } } },
    async (req) => {
      const id = (req.params as { job_id: string }).job_id;
      const r = await store.cancelJob(id, keyOf(req).key_id);
      if (r === 'not_found') throw jobNotFound();
      if (r === 'finished') {
        const job = await ownJob(req, id);
        throw new ApiError(409, 'job_finished', `the job has already finished (status ${job.status})`);
      }
      deps.cancelled(id);
      return statusDocument((await store.getJob(id))!, origin(req));
    },
  );

  app.get(
    '/v1/jobs',
    {
      schema: {
        summary: "The caller's jobs, newest first",
        tags: ['jobs'],
        querystring: ListJobsQuery,
        response: { 200: Type.Object({ jobs: Type.Array(StatusDoc), next_cursor: Type.Union([Type.String(), Type.Null()]) }), ...errorResponses(400, 401, 429) },
      },
    },
    async (req) => {
      const q = req.query as { status?: JobStatus; kind?: string; limit?: number; cursor?: string };
      const limit = q.limit ?? 20;
      const rows = await store.listJobs(keyOf(req).key_id, {
        status: q.status,
        kind: q.kind,
        limit: limit + 1,
        before: decodeCursor(q.cursor, 'querystring:'),
      });
      const page = rows.slice(0, limit);
      return {
        jobs: page.map((j) => statusDocument(j, origin(req))),
        next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.seq) : null,
      };
    },
  );

  app.get(
    '/v1/results/:job_id',
    {
      schema: {
        summary: 'Results of a completed job (JSON, or ?format=csv for its main table)',
        tags: ['jobs'],
        params: JobIdParams,
        querystring: ResultsQuery,
        response: { 200: { description: 'The results document of the job kind', type: 'object', additionalProperties: true }, ...errorResponses(401, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      const job = await ownJob(req, (req.params as { job_id: string }).job_id);
      if (job.status !== 'completed') {
        throw new ApiError(409, 'job_not_completed', `the job is ${job.status}; results exist only for completed jobs`);
      }
      const gz = await store.getResult(job.id);
      if (!gz) throw new Error(`completed job ${job.id} has no stored result`);
      if ((req.query as { format?: string }).format === 'csv') {
        const csv = await deps.preparePool.run({ type: 'csv', kind: job.kind, result: gz }).result;
        if (csv.type !== 'csv') throw new Error('unexpected thread answer');
        return sendStored(req, reply, Buffer.from(csv.csv), 'text/csv; charset=utf-8', `${job.id}.csv`);
      }
      return sendStored(req, reply, gz, 'application/json; charset=utf-8');
    },
  );

  app.get(
    '/v1/targets',
    {
      schema: {
        summary: "Targets found across the caller's completed discovery jobs, newest first",
        tags: ['targets'],
        querystring: PageQuery,
        response: {
          200: Type.Object({
            targets: Type.Array(Type.Object({ job_id: Type.String() }, { additionalProperties: true })),
            next_cursor: Type.Union([Type.String(), Type.Null()]),
          }),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (req) => {
      const q = req.query as { limit?: number; cursor?: string };
      const limit = q.limit ?? 50;
      const rows = await store.listTargets(keyOf(req).key_id, limit + 1, decodeCursor(q.cursor, 'querystring:'));
      const page = rows.slice(0, limit);
      return {
        targets: page.map((r) => ({ ...r.target, job_id: r.job_id })),
        next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.seq) : null,
      };
    },
  );
}

/** Stored bodies are gzip: sent as they are to clients that accept gzip, inflated on the fly otherwise. */
function sendStored(req: FastifyRequest, reply: FastifyReply, gz: Buffer, type: string, filename?: string) {
  reply.header('content-type', type).header('vary', 'accept-encoding');
  if (filename) reply.header('content-disposition', `attachment; filename="${filename}"`);
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    return reply.header('content-encoding', 'gzip').send(gz);
  }
  return reply.send(Readable.from([gz]).pipe(createGunzip()));
}
