// What the routes of long calls (Cypher, what-if, topology) share. A call refused because too many of its kind are
// running or waiting (kb-core's KbBusyError, 429) tells the client when to try again: the Retry-After header,
// beside the error body the console's handler sends. And a request whose body is large (a what-if of 10,000 claims
// is about 2 MB of JSON) is checked against its schema in an event-loop turn of its own, one such request at a
// time: several arriving together would otherwise be validated back to back while every other request waits.
import type { FastifyReply } from 'fastify';
import { KbBusyError } from '@evident/kb';

export async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof KbBusyError) reply.header('retry-after', String(e.retry_after_s));
    throw e;
  }
}

let tail: Promise<void> = Promise.resolve();

/**
 * A preValidation hook: the request's validation and the synchronous start of its handler run in a turn of the
 * event loop of their own, after those of the requests before it (a setImmediate each, taken in order).
 */
export function ownTurn(): Promise<void> {
  const turn = tail.then(() => new Promise<void>((r) => setImmediate(r)));
  tail = turn;
  return turn;
}
