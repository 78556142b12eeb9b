// What the routes of long calls (Cypher, what-if, topology) share. A call refused because too many of its kind are
// running or waiting (kb-core's KbBusyError, 429) tells the client when to try again: the Retry-After header,
// beside the error body the console's handler sends. And a request whose body is large (a what-if of 10,000 claims
// is about 2 MB of JSON) is parsed and checked against its schema in an event-loop turn of its own, one such
// request at a time: several arriving together would otherwise be handled back to back while every other waits.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { KbBusyError } from '@evident/kb';
import { depthBoundedJsonParser } from './http-guards.js';

export async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof KbBusyError) reply.header('retry-after', String(e.retry_after_s));
    throw e;
  }
}

let tail: Promise<void> = Promise.resolve();

/** A turn of the event loop of its own, after those of the requests before it (a setImmediate each, in order). */
function ownTurn(): Promise<void> {
  const turn = tail.then(() => new Promise<void>((r) => setImmediate(r)));
  tail = turn;
  return turn;
}

/**
 * JSON bodies of the routes in `scope` are parsed by the console's parser (its depth bound, MAX_BODY_DEPTH, then
 * Fastify's refusals of `__proto__` and `constructor` keys), in a turn of their own: the parse, the schema check and
 * the handler's start then make one slice of the event loop per request, where bodies that arrive together were
 * parsed back to back.
 */
export function ownTurnJson(scope: FastifyInstance): void {
  const parse = depthBoundedJsonParser(scope);
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    void ownTurn().then(() => parse(req, body as string, done));
  });
}
