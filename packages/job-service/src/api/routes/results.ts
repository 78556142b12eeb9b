// /v1/results/{job_id}: the results document of a completed job, its main table as CSV, or its page; and the
// signed links that open them in a browser without the API key (api/result-links.ts).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ApiError, InvalidParametersError } from '../../errors.js';
import type { JobRecord } from '../../store/types.js';
import {
  JobIdParams,
  LINK_TTL,
  ResultsLinkBody,
  ResultsLinkDoc,
  ResultsQuery,
  errorResponses,
} from '../../wire/schemas.js';
import { originOf, ownJob, taskLimitsOf, type RouteDeps } from './common.js';

const notCompleted = (job: JobRecord) =>
  new ApiError('job_not_completed', `the job is ${job.status}; results exist only for completed jobs`);

/** A link to the kind's page where it has one, else to the results document. */
export async function resultsLinkOf(deps: RouteDeps, job: JobRecord, origin: string, ttlSeconds: number) {
  const page = deps.kinds.find((k) => k.id === job.kind)?.toHtml ? 'html' : undefined;
  return deps.links.create(job, origin, ttlSeconds, page);
}

export const resultRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  app.get(
    '/v1/results/:job_id',
    {
      schema: {
        summary:
          'Results of a completed job (JSON, ?format=csv for its main table, ?format=html for its page, ' +
          '?format=calls.csv for the oracle call log of a compound-design job with a scoring profile, ' +
          '?format=enrichment.csv for the gene-set enrichment of a discovery job); with ' +
          '?token= from a signed link, without the API key',
        tags: ['jobs'],
        params: JobIdParams,
        querystring: ResultsQuery,
        response: {
          200: { description: 'The results document of the job kind', type: 'object', additionalProperties: true },
          ...errorResponses(401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (req, reply) => {
      const job = await ownJob(deps, req, (req.params as { job_id: string }).job_id);
      if (job.status !== 'completed') throw notCompleted(job);
      // Opened from a link (a browser's address bar): shown, not downloaded, never cached, never sent on as Referer.
      if (req.viaLink) reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
      const gz = await deps.store.getResult(job.id);
      if (!gz) throw new Error(`completed job ${job.id} has no stored result`);
      const format = (req.query as { format?: string }).format;
      if (format === 'html') {
        if (!deps.kinds.find((k) => k.id === job.kind)?.toHtml) {
          throw new InvalidParametersError([
            { path: '/format', message: `jobs of kind ${job.kind} have no HTML page; use json or csv` },
          ]);
        }
        const page = await deps.preparePool.run(
          { type: 'csv', kind: job.kind, result: gz, format: 'html', jobId: job.id },
          undefined,
          [],
          taskLimitsOf(deps, reply),
        ).result;
        if (page.type !== 'csv') throw new Error('unexpected thread answer');
        reply.header('content-security-policy', HTML_PAGE_CSP);
        const name = `${job.id}.html`;
        return sendStored(req, reply, Buffer.from(page.csv), 'text/html; charset=utf-8', name, req.viaLink);
      }
      // Deliberate likeness: one thread task and answer per derived format, each with its content type and name.
      if (format === 'enrichment.csv') {
        const table = await deps.preparePool.run(
          { type: 'csv', kind: job.kind, result: gz, format: 'enrichment.csv' },
          undefined,
          [],
          taskLimitsOf(deps, reply),
        ).result;
        if (table.type !== 'csv') throw new Error('unexpected thread answer');
        return sendStored(req, reply, Buffer.from(table.csv), 'text/csv; charset=utf-8', `${job.id}-enrichment.csv`);
      }
      // Deliberate likeness: as enrichment.csv above (one task and answer per format).
      if (format === 'calls.csv') {
        const log = await deps.preparePool.run(
          { type: 'csv', kind: job.kind, result: gz, format: 'calls.csv' },
          undefined,
          [],
          taskLimitsOf(deps, reply),
        ).result;
        if (log.type !== 'csv') throw new Error('unexpected thread answer');
        return sendStored(req, reply, Buffer.from(log.csv), 'text/csv; charset=utf-8', `${job.id}-calls.csv`);
      }
      if (format === 'csv') {
        const csv = await deps.preparePool.run(
          { type: 'csv', kind: job.kind, result: gz },
          undefined,
          [],
          taskLimitsOf(deps, reply),
        ).result;
        if (csv.type !== 'csv') throw new Error('unexpected thread answer');
        return sendStored(req, reply, Buffer.from(csv.csv), 'text/csv; charset=utf-8', `${job.id}.csv`);
      }
      return sendStored(req, reply, gz, 'application/json; charset=utf-8');
    },
  );

  app.post(
    '/v1/results/:job_id/links',
    {
      schema: {
        summary: 'A signed link that opens the results of a completed job in a browser, without the API key',
        description:
          `The link lasts expires_in seconds (default ${LINK_TTL.default}, ${LINK_TTL.min} to ${LINK_TTL.max}) and ` +
          "stops working earlier when the job's links are revoked (DELETE) or its API key is revoked. Anyone " +
          'holding the link can read these results until then: share it as you would the results.',
        tags: ['jobs'],
        params: JobIdParams,
        body: Type.Optional(ResultsLinkBody),
        response: { 201: ResultsLinkDoc, ...errorResponses(400, 401, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      const job = await ownJob(deps, req, (req.params as { job_id: string }).job_id);
      if (job.status !== 'completed') throw notCompleted(job);
      const ttl = (req.body as { expires_in?: number } | undefined)?.expires_in ?? LINK_TTL.default;
      return reply.status(201).send(await resultsLinkOf(deps, job, originOf(deps, req), ttl));
    },
  );

  app.delete(
    '/v1/results/:job_id/links',
    {
      schema: {
        summary: "Revoke every signed link made for this job's results so far",
        tags: ['jobs'],
        params: JobIdParams,
        response: { 204: { description: 'Revoked', type: 'null' }, ...errorResponses(401, 404, 429) },
      },
    },
    async (req, reply) => {
      const job = await ownJob(deps, req, (req.params as { job_id: string }).job_id);
      await deps.store.revokeResultLinks(job.id);
      return reply.status(204).send();
    },
  );
};

/**
 * The results page runs its own inline scripts (the viewer, the data) and nothing else: no network, no frames,
 * no forms (the page is data the service made, but molecule names and structure text came from a caller).
 */
const HTML_PAGE_CSP =
  "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data: blob:; " +
  "connect-src 'none'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'";

/** Stored bodies are gzip: sent as they are to clients that accept gzip, inflated on the fly otherwise. */
function sendStored(
  req: FastifyRequest,
  reply: FastifyReply,
  gz: Buffer,
  type: string,
  filename?: string,
  inline = false,
) {
  reply.header('content-type', type).header('vary', 'accept-encoding');
  if (filename) reply.header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${filename}"`);
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    return reply.header('content-encoding', 'gzip').send(gz);
  }
  return reply.send(Readable.from([gz]).pipe(createGunzip()));
}
