// The REST form of operations: one Fastify route each, its schema (and so its part of the OpenAPI document) made
// from the operation's. The path names input fields (`:entity`); the other fields are the query string of a GET
// and the body of a POST. Errors go through the console's handler; a call refused as busy (429) adds Retry-After.
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { KbDB } from '@evident/kb';
import { ErrorBody } from '../surface/schemas.js';
import { ownTurnJson, withRetryAfter } from '../console/long-calls.js';
import { heavyLane } from '../console/heavy-lane.js';
import { type Operation, RawJson, restParts } from './operation.js';

const ERRORS: Record<number, string> = {
  400: 'Invalid parameters or a request the library refuses (details: [{ path, message }], JSON pointers)',
  401: 'Missing or invalid bearer token',
  404: 'Unknown entity, claim, source or topic',
  408: 'The call ran past its timeout_ms and was stopped',
  409: 'not_computed: no topology computed yet',
  413: 'Body too large, or the call went past one of its budgets',
  429: 'busy or console_busy: too many such calls, or heavy calls, running or waiting (Retry-After says when to try again)',
  500: 'Internal error (logged with the request id)',
  501: 'extraction_unavailable: the base was opened without extraction',
  503: 'off_thread_unavailable: the worker thread could not be made ready',
};

/** The route's Fastify schema: tags, summary, parameters, responses, all from the operation. */
export function routeSchema(op: Operation): Record<string, unknown> {
  const { params, rest } = restParts(op);
  const responses: Record<number, TSchema> = { ...(op.rest.responses ?? { 200: op.output }) };
  for (const code of [400, 401, 500, ...(op.rest.errors ?? [])])
    responses[code] = { ...ErrorBody, description: ERRORS[code] ?? 'Error' };
  return {
    operationId: op.name,
    tags: [op.rest.tag],
    summary: op.title,
    description: op.description,
    ...(params ? { params } : {}),
    ...(op.rest.method === 'GET' ? { querystring: rest } : { body: rest }),
    response: responses,
  };
}

/** What the route answers for the operation's answer `out`. */
function send(op: Operation, reply: FastifyReply, out: unknown): unknown {
  if (out instanceof RawJson) return reply.type('application/json; charset=utf-8').send(out.text);
  if (!op.rest.answer) return out;
  const { status, body } = (op.rest.answer as (o: unknown) => { status: number; body: unknown })(out);
  return reply.code(status).send(body);
}

/** One event-loop turn: what arrived meanwhile (a probe's request, a connection) is read and answered first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A heavy call's answer made into its JSON text (the route's response schema, for the status it answers) in an
 * event-loop turn of its own, as a step of the call's lane job: the computation's last step and the serialisation
 * of a large answer (a topology's topics at 30,000 entities: ~70 ms, stretched several times under load) were one
 * uninterrupted stretch of the console's thread, after the lane had already let the next job start.
 */
async function serialised(op: Operation, reply: FastifyReply, out: unknown): Promise<RawJson> {
  if (out instanceof RawJson) return out;
  await nextTurn();
  const { status, body } = op.rest.answer
    ? (op.rest.answer as (o: unknown) => { status: number; body: unknown })(out)
    : { status: 200, body: out };
  reply.code(status);
  return new RawJson(reply.serialize(body) as string);
}

function register(api: FastifyInstance, db: KbDB, op: Operation): void {
  api.route({
    method: op.rest.method,
    url: op.rest.path,
    schema: routeSchema(op),
    handler: async (req, reply) => {
      const input = {
        ...(req.params as Record<string, unknown>),
        ...((op.rest.method === 'GET' ? req.query : req.body) as Record<string, unknown> | undefined),
      };
      const heavy = op.rest.heavy;
      const run = () => op.run(db, input);
      const inLane = async () => serialised(op, reply, await run());
      const out = await withRetryAfter(reply, () => (heavy ? heavyLane.run(op.name, inLane, heavy.most) : run()));
      return send(op, reply, out);
    },
  });
}

/**
 * The operations' routes on `api`. Those whose bodies are large are registered in a context of their own, whose
 * JSON bodies are parsed and checked each in an event-loop turn of its own (long-calls.ts).
 */
export async function registerOperations(api: FastifyInstance, db: KbDB, ops: readonly Operation[]): Promise<void> {
  for (const op of ops) if (!op.rest.ownTurn) register(api, db, op);
  const own = ops.filter((op) => op.rest.ownTurn);
  if (own.length)
    await api.register(async (scope) => {
      ownTurnJson(scope);
      for (const op of own) register(scope, db, op);
    });
}
