// Authentication of the /v1 resources: two hooks of the authenticated context. `identify` finds the caller's key
// (before the rate limiter, which counts per key); `requireKey` refuses a request without a valid one (after it,
// so that failed authentications count too and carry the rate-limit headers).
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { type ApiError, unauthorized } from '../errors.js';
import { hashApiKey } from '../ids.js';
import { limitsOf, type PlanLimits } from '../plans.js';
import type { KeyRecord, Store } from '../store/types.js';
import { LINK_PARAM, type ResultLinks } from './result-links.js';

/** The one route a signed results link opens (api/result-links.ts). */
export const LINKED_ROUTE = '/v1/results/:job_id';

/** The token of a results-link request: a GET of the results route with `?token=` and no Authorization header. */
export function linkTokenOf(req: FastifyRequest): string | undefined {
  if (req.headers.authorization !== undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
  if (req.routeOptions.url !== LINKED_ROUTE) return undefined;
  const token = (req.query as Record<string, unknown> | undefined)?.[LINK_PARAM];
  return typeof token === 'string' ? token : undefined;
}

type Identity = KeyRecord & { limits: PlanLimits };

export function identifyHook(store: Store, links: ResultLinks) {
  // The embedded store hands out one frozen record per key until the database changes (a revocation or a plan
  // change gives a new record), so the identity built from it is reused instead of rebuilt per request.
  const identities = new WeakMap<KeyRecord, Identity>();
  return async (req: FastifyRequest): Promise<void> => {
    const h = req.headers.authorization;
    if (h === undefined) {
      const token = linkTokenOf(req);
      if (token !== undefined) {
        try {
          const key = await links.verify((req.params as { job_id: string }).job_id, token);
          req.apiKey = { ...key, limits: limitsOf(key) };
          req.keyRecord = key;
          req.viaLink = true;
        } catch (e) {
          req.authError = e as ApiError;
        }
        return;
      }
    }
    const m = typeof h === 'string' ? /^Bearer\s+(\S{1,200})\s*$/i.exec(h) : null;
    if (!m) {
      req.authProblem = 'missing Authorization: Bearer <API key> header';
      return;
    }
    const key = await store.findKeyByHash(hashApiKey(m[1]!));
    if (!key || key.revoked_at != null) {
      req.authProblem = key ? 'this API key has been revoked' : 'invalid API key';
      return;
    }
    let identity = identities.get(key);
    if (!identity) {
      identity = { ...key, limits: limitsOf(key) };
      identities.set(key, identity);
    }
    req.apiKey = identity;
    req.keyRecord = key;
  };
}

/** Callback-style: an async hook costs a promise per request (bench:api). */
export function requireKey(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  done(req.apiKey ? undefined : (req.authError ?? unauthorized(req.authProblem ?? undefined)));
}
