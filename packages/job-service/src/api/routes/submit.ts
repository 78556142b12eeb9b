// POST routes that create jobs: one per job kind served (/v1/targets/discover, /v1/compounds/generate, ...).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { checkCallbackUrl } from '../../callbacks/address.js';
import { ApiError, InvalidParametersError } from '../../errors.js';
import { estimateFields, withWait } from '../../estimate.js';
import { newJobId } from '../../ids.js';
import { RawJsonBody } from '../../wire/raw-body.js';
import { BodyCheckTooLongError, TaskTimeoutError } from '../../runner/thread-errors.js';
import { Accepted, errorResponses, submitBodySchema } from '../../wire/schemas.js';
import type { JobRecord } from '../../store/types.js';
import { discardInputFile } from '../../store/input-files.js';
import {
  fingerprintOf,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_TTL_MS,
  REPLAYED_HEADER,
  replayOf,
  SubmitHeaders,
} from '../idempotency.js';
import { keyOf, originOf, queuePlaces, taskLimitsOf, type RouteDeps } from './common.js';

type Kind = RouteDeps['kinds'][number];
type Key = ReturnType<typeof keyOf>;
type PrepareTask = ReturnType<RouteDeps['preparePool']['run']>;
type Prepared = Awaited<PrepareTask['result']>;
interface Idempotency {
  key: string;
  fingerprint: string;
  expiredAt: number;
}

export const submitRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  for (const kind of deps.kinds) {
    app.post(kind.route, { schema: submitSchema(kind) }, (req, reply) => submitJob(deps, kind, req, reply));
  }
};

function submitSchema(kind: Kind) {
  return {
    summary: `Submit a ${kind.id} job`,
    tags: ['jobs'],
    headers: SubmitHeaders,
    body: submitBodySchema(kind.requestSchema),
    response: {
      202: {
        ...Accepted,
        headers: {
          'Idempotent-Replayed': {
            type: 'string',
            enum: ['true', 'false'],
            description: "With an Idempotency-Key: true when this is the first request's answer again",
          },
        },
      },
      ...errorResponses(400, 401, 409, 413, 429, 500, 503),
    },
  };
}

/** One submission: replayed if seen, else prepared on a thread, stored, queued and answered 202. */
async function submitJob(deps: RouteDeps, kind: Kind, req: FastifyRequest, reply: FastifyReply) {
  const { store } = deps;
  const key = keyOf(req);
  const idempotency = idempotencyOf(kind, req);
  if (idempotency) {
    // A retry of a request already made is answered before any of the work of preparing it.
    const seen = await store.findIdempotency(key.key_id, idempotency.key, idempotency.expiredAt);
    if (seen) return replay(deps, req, reply, replayOf(seen, idempotency.fingerprint).job_id, seen.response);
  }
  const { prepared, callback_url } = await prepare(deps, kind, key, req, reply);
  const [low, high] = prepared.estimate;
  const file = prepared.inputFile;
  const inserted = await store
    .insertJob(
      {
        id: newJobId(kind.id),
        key_id: key.key_id,
        kind: kind.id,
        max_attempts: deps.config.maxAttempts,
        estimate_low: low,
        estimate_high: high,
        callback_url: callback_url ?? null,
        // A view, not a copy: the thread moved the bytes here.
        input: Buffer.from(prepared.input.buffer, prepared.input.byteOffset, prepared.input.byteLength),
        ...(file !== undefined ? { input_file: file } : {}),
      },
      key.limits.concurrency,
      idempotency,
    )
    .catch((e: unknown) => {
      if (file !== undefined) discardInputFile(store.inputDir!, file);
      throw e;
    });
  // Refused: no job names the input's file.
  if (!inserted.ok && file !== undefined) discardInputFile(store.inputDir!, file);
  // A concurrent request with the same key stored its job first.
  if (!inserted.ok && 'existing' in inserted) {
    const seen = replayOf(inserted.existing, idempotency!.fingerprint);
    return replay(deps, req, reply, seen.job_id, seen.response);
  }
  if (!inserted.ok) {
    throw new ApiError(
      'concurrent_job_limit',
      `this key already has ${inserted.processing} job(s) processing, the limit of its plan (${key.plan}); ` +
        'retry when one finishes',
      { retryAfter: await soonestFinish(deps, key.key_id) },
    );
  }
  const job = inserted.job;
  await enqueue(deps, job, key, idempotency);
  const statusUrl = `${originOf(deps, req)}/v1/jobs/${job.id}`;
  reply.status(202).header('location', statusUrl);
  const accepted = await acceptedOf(deps, job, kind.acceptedWithWebhookUrl ?? false, statusUrl);
  if (!idempotency) return reply.send(accepted);
  // Kept as sent (the route's serializer), so that a replay is byte for byte the same answer.
  const json = String(reply.serialize(accepted));
  await store.saveIdempotentResponse(key.key_id, idempotency.key, job.id, json);
  return reply.header(REPLAYED_HEADER, 'false').type('application/json; charset=utf-8').send(json);
}

function idempotencyOf(kind: Kind, req: FastifyRequest): Idempotency | undefined {
  const idemKey = req.headers[IDEMPOTENCY_HEADER] as string | undefined;
  return idemKey === undefined
    ? undefined
    : {
        key: idemKey,
        fingerprint: fingerprintOf(kind.route, req.bodyDigest ?? ''),
        expiredAt: Date.now() - IDEMPOTENCY_TTL_MS,
      };
}

/** The request checked and prepared by the kind on a thread, and its callback URL checked. */
async function prepare(
  deps: RouteDeps,
  kind: Kind,
  key: Key,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<{ prepared: Extract<Prepared, { type: 'prepared' }>; callback_url: string | undefined }> {
  let callback_url: string | undefined;
  let task: PrepareTask;
  const limits = taskLimitsOf(deps, reply);
  // The plan's caps the kind checks the request against (a compound-design budget).
  const planLimits = { max_oracle_calls: key.limits.max_oracle_calls };
  // Embedded store: a large input is written to a file by the thread (store/input-files.ts), off this loop.
  const inputDir = deps.store.inputDir;
  // The size of a body handed to a thread as bytes (read before they move there).
  let rawBytes: number | undefined;
  if (req.body instanceof RawJsonBody) {
    const raw = req.body.bytes;
    rawBytes = raw.length;
    // Move the bytes to the thread when they own their memory; copy otherwise.
    const own = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength ? raw : Buffer.from(raw);
    const transfer = [own.buffer as ArrayBuffer];
    const pool = deps.largeBodyPool ?? deps.preparePool;
    const rawTask = { type: 'prepare-raw', kind: kind.id, raw: own, limits: planLimits, inputDir } as const;
    task = pool.run(rawTask, undefined, transfer, limits);
  } else {
    const { callback_url: cb, ...request } = req.body as Record<string, unknown> & { callback_url?: string };
    callback_url = cb;
    await checkCallback(deps, callback_url);
    const inline = { type: 'prepare', kind: kind.id, request, limits: planLimits, inputDir } as const;
    task = deps.preparePool.run(inline, undefined, [], limits);
  }
  // A refused request comes back from the thread as the kind's own typed error: it is the answer. A large
  // body whose check ran past the deadline is the body's doing (its size), a 413; a small one's stays 503.
  const prepared = await task.result.catch((e: unknown) => {
    if (rawBytes !== undefined && e instanceof TaskTimeoutError && e.code === 'prepare_timeout')
      throw new BodyCheckTooLongError(rawBytes, limits.timeoutMs ?? deps.config.requestTaskTimeoutMs);
    throw e;
  });
  if (prepared.type !== 'prepared') throw new Error('unexpected thread answer');
  if (req.body instanceof RawJsonBody) {
    callback_url = prepared.callback_url;
    await checkCallback(deps, callback_url);
  }
  return { prepared, callback_url };
}

/** Queues the stored job; if the queue refuses it, the job fails and its idempotency key is freed. */
async function enqueue(deps: RouteDeps, job: JobRecord, key: Key, idempotency: Idempotency | undefined) {
  try {
    await deps.enqueue(job);
  } catch (e) {
    await deps.store.failJob(job.id, 'queue_unavailable', 'the job could not be queued', Date.now());
    // A retry with the same key must make a new job, not replay this one.
    if (idempotency) await deps.store.forgetIdempotency(key.key_id, idempotency.key, job.id);
    throw e;
  }
}

/** Seconds until the first of the key's processing jobs is expected to finish (low estimate), 1..3600. */
async function soonestFinish(deps: RouteDeps, keyId: string): Promise<number> {
  const jobs = await deps.store.listJobs(keyId, { status: 'processing', limit: 100 });
  const now = Date.now();
  const left = jobs.map((j) => ((j.started_at ?? now) + j.estimate_low * 1000 - now) / 1000);
  return Math.min(3600, Math.max(1, Math.ceil(left.length ? Math.min(...left) : 30)));
}

async function checkCallback(deps: RouteDeps, url: string | undefined): Promise<void> {
  const problem = url === undefined ? undefined : await checkCallbackUrl(url, deps.config.allowPrivateCallbacks);
  if (problem) throw new InvalidParametersError([{ path: '/callback_url', message: problem }]);
}

/** The accepted answer for a job just stored (its estimate counts the jobs ahead, every key's). */
async function acceptedOf(deps: RouteDeps, job: JobRecord, withWebhookUrl: boolean, statusUrl: string) {
  const place = (await queuePlaces(deps, [job])).get(job.id);
  const estimate = estimateFields(withWait([job.estimate_low, job.estimate_high], place?.wait ?? [0, 0]));
  return {
    job_id: job.id,
    status: 'processing' as const,
    estimated_time: estimate.estimated_time,
    estimated_seconds: estimate.estimated_seconds,
    ...(place?.position !== undefined ? { queue_position: place.position } : {}),
    // The seed's discovery response carries webhook_url; its compound response does not.
    ...(withWebhookUrl ? { webhook_url: statusUrl } : {}),
  };
}

/** The first job's accepted answer again: as it was sent, or made from the job if it was not stored yet. */
async function replay(
  deps: RouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  jobId: string,
  response: string | null,
) {
  const statusUrl = `${originOf(deps, req)}/v1/jobs/${jobId}`;
  reply.status(202).header('location', statusUrl).header(REPLAYED_HEADER, 'true');
  if (response !== null) return reply.type('application/json; charset=utf-8').send(response);
  // Jobs are never deleted: a record always has its job.
  const job = await deps.store.getJob(jobId);
  if (!job) throw new Error(`idempotency record of a missing job ${jobId}`);
  const withWebhookUrl = deps.kinds.find((k) => k.id === job.kind)?.acceptedWithWebhookUrl ?? false;
  return reply.send(await acceptedOf(deps, job, withWebhookUrl, statusUrl));
}
