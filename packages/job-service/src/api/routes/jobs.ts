// /v1/jobs: a job's status, cancelling it, and the caller's jobs.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError, jobNotFound } from '../../errors.js';
import type { JobRecord, JobStatus } from '../../store/types.js';
import { statusDocument } from '../../wire/status.js';
import { JobIdParams, LINK_TTL, ListJobsQuery, StatusDoc, StatusQuery, errorResponses } from '../../wire/schemas.js';
import { resultsLinkOf } from './results.js';
import { decodeCursor, encodeCursor, keyOf, originOf, ownJob, queuePlaces, type RouteDeps } from './common.js';

export const jobRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  const { store } = deps;
  // The serialized document of a finished job, per job record: the embedded store hands out one frozen record per
  // job until the database changes, so a status change gives a new record and a new document. A processing job's
  // document holds its queue wait, which moves with time: made afresh each request.
  const finishedDocs = new WeakMap<JobRecord, { origin: string; json: string }>();

  app.get(
    '/v1/jobs/:job_id',
    {
      schema: {
        summary: 'Status of a job',
        tags: ['jobs'],
        params: JobIdParams,
        querystring: StatusQuery,
        response: { 200: StatusDoc, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (req, reply) => {
      const job = await ownJob(deps, req, (req.params as { job_id: string }).job_id);
      const origin = originOf(deps, req);
      if ((req.query as { results_link?: boolean }).results_link && job.status === 'completed') {
        const link = await resultsLinkOf(deps, job, origin, LINK_TTL.default);
        return { ...statusDocument(job, origin), results_link: { url: link.url, expires_at: link.expires_at } };
      }
      if (job.status === 'processing') {
        return statusDocument(job, origin, (await queuePlaces(deps, [job])).get(job.id));
      }
      let doc = finishedDocs.get(job);
      if (doc === undefined || doc.origin !== origin) {
        // The route's own serializer (its response schema), as Fastify would apply it.
        doc = { origin, json: String(reply.serialize(statusDocument(job, origin))) };
        finishedDocs.set(job, doc);
      }
      // A string with a JSON content type is sent as it is.
      return reply.type('application/json; charset=utf-8').send(doc.json);
    },
  );

  app.delete(
    '/v1/jobs/:job_id',
    {
      schema: {
        summary: 'Cancel a job that has not finished',
        tags: ['jobs'],
        params: JobIdParams,
        response: { 200: StatusDoc, ...errorResponses(401, 404, 409, 429) },
      },
    },
    async (req) => {
      const id = (req.params as { job_id: string }).job_id;
      const r = await store.cancelJob(id, keyOf(req).key_id);
      if (r === 'not_found') throw jobNotFound();
      if (r === 'finished') {
        const job = await ownJob(deps, req, id);
        throw new ApiError('job_finished', `the job has already finished (status ${job.status})`);
      }
      deps.cancelled(id);
      return statusDocument((await store.getJob(id))!, originOf(deps, req));
    },
  );

  app.get(
    '/v1/jobs',
    {
      schema: {
        summary: "The caller's jobs, newest first",
        tags: ['jobs'],
        querystring: ListJobsQuery,
        response: {
          200: Type.Object({ jobs: Type.Array(StatusDoc), next_cursor: Type.Union([Type.String(), Type.Null()]) }),
          ...errorResponses(400, 401, 429),
        },
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
      const places = await queuePlaces(deps, page);
      return {
        jobs: page.map((j) => statusDocument(j, originOf(deps, req), places.get(j.id))),
        next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.seq) : null,
      };
    },
  );
};
