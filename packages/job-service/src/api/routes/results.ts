// /v1/results/{job_id}: the results document of a completed job, or its main table as CSV.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ApiError, InvalidParametersError } from '../../errors.js';
import { JobIdParams, ResultsQuery, errorResponses } from '../../wire/schemas.js';
import { ownJob, taskLimitsOf, type RouteDeps } from './common.js';

export const resultRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  app.get(
    '/v1/results/:job_id',
    {
      schema: {
        summary: 'Results of a completed job (JSON, or ?format=csv for its main table)',
        tags: ['jobs'],
        params: JobIdParams,
        querystring: ResultsQuery,
        response: {
          200: { description: 'The results document of the job kind', type: 'object', additionalProperties: true },
          ...errorResponses(401, 404, 409, 429, 503),
        },
      },
    },
    async (req, reply) => {
      const job = await ownJob(deps, req, (req.params as { job_id: string }).job_id);
      if (job.status !== 'completed') {
        throw new ApiError(409, 'job_not_completed', `the job is ${job.status}; results exist only for completed jobs`);
      }
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
        return sendStored(req, reply, Buffer.from(page.csv), 'text/html; charset=utf-8', `${job.id}.html`);
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
};

/**
 * The results page runs its own inline scripts (the viewer, the data) and nothing else: no network, no frames,
 * no forms (the page is data the service made, but molecule names and structure text came from a caller).
 */
const HTML_PAGE_CSP =
  "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data: blob:; " +
  "connect-src 'none'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'";

/** Stored bodies are gzip: sent as they are to clients that accept gzip, inflated on the fly otherwise. */
function sendStored(req: FastifyRequest, reply: FastifyReply, gz: Buffer, type: string, filename?: string) {
  reply.header('content-type', type).header('vary', 'accept-encoding');
  if (filename) reply.header('content-disposition', `attachment; filename="${filename}"`);
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    return reply.header('content-encoding', 'gzip').send(gz);
  }
  return reply.send(Readable.from([gz]).pipe(createGunzip()));
}
