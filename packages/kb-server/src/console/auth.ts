// Bearer token check for /api/v1 when KB_CONSOLE_TOKEN is set. Both sides are hashed first so the
// comparison is constant-time and independent of the token's length.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from '@evident/http-guards';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function bearerGuard(token: string) {
  const expected = digest(token);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(header);
    if (m && timingSafeEqual(digest(m[1]!.trim()), expected)) return;
    reply.header('WWW-Authenticate', 'Bearer realm="evident-kb"');
    throw httpError('unauthorized', m ? 'invalid bearer token' : 'missing Authorization: Bearer <token> header');
  };
}
