// Authentication of the /v1 resources: two hooks of the authenticated context. `identify` finds the caller's key
// (before the rate limiter, which counts per key); `requireKey` refuses a request without a valid one (after it,
// so that failed authentications count too and carry the rate-limit headers).
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../errors.js';
import { hashApiKey } from '../ids.js';
import { limitsOf } from '../plans.js';
import type { Store } from '../store/types.js';

export function identifyHook(store: Store) {
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
    req.apiKey = { ...key, limits: limitsOf(key) };
  };
}

export async function requireKey(req: FastifyRequest): Promise<void> {
  if (!req.apiKey) throw unauthorized(req.authProblem ?? undefined);
}
