// What the routes of long calls (Cypher, what-if, topology) share. A call refused because too many of its kind are
// running or waiting (kb-core's KbBusyError, 429) tells the client when to try again: the Retry-After header,
// beside the error body the console's handler sends. And a request whose body is large (a what-if of 10,000 claims
// is about 2 MB of JSON) is parsed and checked against its schema as a job of the console's lane (heavy-lane.ts),
// one such request at a time: several arriving together would otherwise be handled back to back while every other
// waits.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { KbBusyError } from '@evident/kb';
import { EvidentError } from '@evident/contract';
import { heavyLane } from './heavy-lane.js';
import { depthBoundedJsonParser } from './http-guards.js';

export async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof KbBusyError) reply.header('retry-after', String(e.retry_after_s));
    else if (e instanceof EvidentError && e.code === 'console_busy')
      reply.header('retry-after', String(heavyLane.retryAfterS));
    throw e;
  }
}

/**
 * JSON bodies of the routes in `scope` are parsed by the console's parser (its depth bound, MAX_BODY_DEPTH, then
 * Fastify's refusals of `__proto__` and `constructor` keys), each as a job of the console's lane: the parse, the
 * schema check and the handler's start then make one slice of the event loop per request, where bodies that arrive
 * together were parsed back to back.
 */
export function ownTurnJson(scope: FastifyInstance): void {
  const parse = depthBoundedJsonParser(scope);
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // A job of the console's lane: one turn of its own, after the heavy work asked before it.
    heavyLane.run('json_body', async () => parse(req, body as string, done)).catch((e: Error) => done(e, undefined));
  });
}
