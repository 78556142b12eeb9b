// The /v1 HTTP API: auth, plans and rate limits, validation, errors, OpenAPI; routes in routes.ts.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ServiceConfig } from '../config.js';
import { EvidentError, toWireError } from '@evident/contract';
import { ApiError, invalidJson, invalidRequest, notFound, unauthorized } from '../errors.js';
import { hashApiKey } from '../ids.js';
import { limitsOf, type PlanLimits } from '../plans.js';
import type { KeyRecord, Store } from '../store/types.js';
import type { ThreadPool } from '../runner/thread-pool.js';
import type { JobRecord } from '../store/types.js';
import { typeboxValidatorCompiler } from '../wire/validation.js';
import { RawJsonBody } from '../wire/raw-body.js';
import { registerRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: (KeyRecord & { limits: PlanLimits }) | null;
    authProblem: string | null;
  }
}

export interface AppDeps {
  config: ServiceConfig;
  store: Store;
  preparePool: ThreadPool;
  /** Hands a stored job to the queue. */
  enqueue(job: JobRecord): Promise<void>;
  /** Stops a cancelled job if it runs in this process. */
  cancelled(jobId: string): void;
  redis?: Redis | undefined;
  /** Anonymous callers (no or bad key) are limited per IP to this many requests a minute. */
  anonymousRpm?: number;
  logger?: boolean | object;
}

const PUBLIC = /^\/(healthz$|v1\/openapi\.json$|v1\/docs(\/|$))/;
const isPublic = (req: FastifyRequest) => PUBLIC.test(req.routeOptions.url ?? req.url);

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store } = deps;
  const app = Fastify({
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: false,
    logger: deps.logger ?? {
      level: config.logLevel,
      // Keys must never reach logs; the default serializers omit headers, this is belt and braces.
      redact: ['req.headers.authorization', 'headers.authorization'],
      serializers: {
        // A key pasted into a URL by mistake must not reach the log either.
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: String(req.url).replace(/(evk|whsec)_[A-Za-z0-9_-]+/g, '$1_[redacted]'),
          remoteAddress: req.ip,
        }),
      },
    },
    // Router-level failures (bad URL encoding, over-long path parameters) answer in the one error shape too.
    frameworkErrors: (err, req, reply) => {
      const e = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? notFound() : invalidRequest('the request URL is malformed');
      const wire = toWireError(e, { requestId: req.id });
      void (reply as unknown as FastifyReply).code(wire.status).header('x-request-id', req.id).send(wire.body);
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true } },
  });
  app.setValidatorCompiler(typeboxValidatorCompiler);
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const buf = body as Buffer;
    if (req.method === 'POST' && buf.length > config.inlineJsonLimitBytes) return done(null, new RawJsonBody(buf));
    defaultJson(req, buf.toString('utf8'), done);
  });
  app.decorateRequest('apiKey', null);
  app.decorateRequest('authProblem', null);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    if (isPublic(req)) return;
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
  });

  await app.register(rateLimit, {
    global: true,
    timeWindow: 60_000,
    max: async (req) => req.apiKey?.limits.rpm ?? deps.anonymousRpm ?? 60,
    keyGenerator: (req) => (req.apiKey ? `key:${req.apiKey.key_id}` : `ip:${req.ip}`),
    allowList: (req) => isPublic(req),
    redis: deps.redis,
    nameSpace: 'evident-rl-',
    skipOnError: true,
    errorResponseBuilder: (_req, ctx) =>
      new ApiError(429, 'rate_limited', `rate limit of ${ctx.max} requests per minute exceeded; retry in ${ctx.after}`, {
        retryAfter: Math.ceil(ctx.ttl / 1000),
      }),
  });

  // After the rate limiter so that failed authentications count too (and carry the headers).
  app.addHook('preParsing', async (req) => {
    if (!isPublic(req) && !req.apiKey) throw unauthorized(req.authProblem ?? undefined);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Evident discovery job service',
        version: '1.0.0',
        description: 'Asynchronous target-discovery and compound-generation jobs. Authenticate with `Authorization: Bearer <API key>`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs' });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', store: store.backend }));

  // Unknown routes count against the caller's rate limit too (and carry its headers).
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (req) => {
    throw notFound(`no route ${req.method} ${req.url.split('?')[0]}`);
  });

  // Every error answer is made by the one mapper; 5xx are logged with the request id the body carries.
  app.setErrorHandler(async (err: unknown, req, reply) => {
    const wire = toWireError(toEvidentError(err), { requestId: req.id });
    if (wire.internal) req.log.error({ err, reqId: req.id }, 'request failed');
    if (err instanceof ApiError && err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
    return reply.status(wire.status).send(wire.body);
  });

  await registerRoutes(app, deps);
  return app;
}

// Fastify's own errors, in the job API's codes.
const FASTIFY_CODES: Record<string, [number, string, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large', 'the request body is larger than the configured limit'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'send the body as application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_request', 'the Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json', 'the body is empty but Content-Type says JSON'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json', 'the body is not valid JSON'],
};

/** Our errors as they are; Fastify's (body parsing, limits) in the job API's codes; anything else stays a 500. */
function toEvidentError(err: unknown): unknown {
  if (err instanceof EvidentError) return err;
  const fe = err as FastifyError;
  const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped) return new ApiError(mapped[0], mapped[1], mapped[2]);
  if (err instanceof SyntaxError) return invalidJson();
  if (fe.statusCode === 400 && /prototype|constructor/i.test(fe.message)) {
    return invalidJson('the body contains a forbidden key (__proto__ or constructor.prototype)');
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return fe.statusCode === 404 ? notFound(fe.message) : new ApiError(fe.statusCode, 'invalid_request', fe.message);
  }
  return err;
}
