// What the resource plugins share: the deps they are registered with, the public origin, the caller's own job,
// and page cursors.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TaskLimits } from '../../runner/thread-pool.js';
import { InvalidParametersError, jobNotFound } from '../../errors.js';
import { queuePlace, type QueuePlace } from '../../queue/wait.js';
import type { JobRecord } from '../../store/types.js';
import type { AppDeps } from '../app.js';
import type { ResultLinks } from '../result-links.js';

export type RouteDeps = AppDeps & {
  /** Signed results links (api/result-links.ts). */
  links: ResultLinks;
};

/** The origin absolute URLs are made from: the configured public URL, else the request's own. */
export function originOf(deps: RouteDeps, req: FastifyRequest): string {
  return deps.config.publicUrl?.replace(/\/$/, '') ?? `${req.protocol}://${req.host}`;
}

/** The authenticated caller's key (routes in the authenticated context only). */
export const keyOf = (req: FastifyRequest) => req.apiKey!;

export async function ownJob(deps: RouteDeps, req: FastifyRequest, id: string): Promise<JobRecord> {
  const job = await deps.store.getJob(id, req.keyRecord ?? undefined);
  // Another key's job is answered exactly like a missing one.
  if (!job || job.key_id !== keyOf(req).key_id) throw jobNotFound();
  return job;
}

export const encodeCursor = (seq: number) => Buffer.from(`s${seq}`).toString('base64url');

export function decodeCursor(c: string | undefined, where: string): number | undefined {
  if (c === undefined) return undefined;
  const m = /^s(\d{1,15})$/.exec(Buffer.from(c, 'base64url').toString('utf8'));
  if (!m) throw new InvalidParametersError([{ path: `${where}/cursor`, message: 'is not a cursor this API returned' }]);
  return Number(m[1]);
}

/**
 * Limits for a thread task done for this request: the configured deadline, and a signal aborted when the
 * client closes the connection before the answer is sent (the task is then dropped or stopped).
 */
export function taskLimitsOf(deps: RouteDeps, reply: FastifyReply): TaskLimits {
  const gone = new AbortController();
  const res = reply.raw;
  const onClose = () => {
    if (!res.writableFinished) gone.abort();
  };
  res.once('close', onClose);
  return { timeoutMs: deps.config.requestTaskTimeoutMs, signal: gone.signal };
}

/** Jobs looked at for queue positions: beyond this many ahead, the wait is a lower bound. */
const QUEUE_SCAN_LIMIT = 1000;

/** Where these jobs stand in the queue: position and wait for each queued one (one store read for all). */
export async function queuePlaces(deps: RouteDeps, jobs: readonly JobRecord[]): Promise<Map<string, QueuePlace>> {
  const out = new Map<string, QueuePlace>();
  if (!jobs.some((j) => j.status === 'processing' && j.phase !== 'running')) return out;
  const active = await deps.store.activeJobs(QUEUE_SCAN_LIMIT);
  // Embedded mode runs jobs on this process's worker threads; scale-out workers are other processes.
  const slots = deps.config.databaseUrl ? undefined : deps.config.workerThreads;
  const now = Date.now();
  for (const j of jobs) if (j.status === 'processing') out.set(j.id, queuePlace(active, j.id, now, slots));
  return out;
}
