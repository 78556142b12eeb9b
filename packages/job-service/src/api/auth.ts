// Authentication of the /v1 resources: two hooks of the authenticated context. `identify` finds the caller's key
// (before the rate limiter, which counts per key); `requireKey` refuses a request without a valid one (after it,
// so that failed authentications count too and carry the rate-limit headers).
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { unauthorized } from '../errors.js';
import { hashApiKey } from '../ids.js';
import { limitsOf, type PlanLimits } from '../plans.js';
import type { KeyRecord, Store } from '../store/types.js';

type Identity = KeyRecord & { limits: PlanLimits };

export function identifyHook(store: Store) {
  // The embedded store hands out one frozen record per key until the database changes (a revocation or a plan
  // change gives a new record), so the identity built from it is reused instead of rebuilt per request.
  const identities = new WeakMap<KeyRecord, Identity>();
  return async (req: FastifyRequest): Promise<void> => {
    const h = req.headers.authorization;
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
  done(req.apiKey ? undefined : unauthorized(req.authProblem ?? undefined));
}
