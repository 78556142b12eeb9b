// The /v1 HTTP API: body parsing, errors, rate limits, and the routes: public ones (routes/public.ts) and the
// resources (routes/*.ts) inside one authenticated context (auth.ts).
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ServiceConfig } from '../config.js';
import { InvalidParametersError, pointer, type Problem } from '@evident/contract';
import { ApiError, invalidRequest, notFound } from '../errors.js';
import type { PlanLimits } from '../plans.js';
import type { AnyKind } from '../kinds/registry.js';
import type { KeyRecord, Store } from '../store/types.js';
import type { ThreadPool } from '../runner/thread-pool.js';
import type { JobRecord } from '../store/types.js';
import { typeboxValidatorCompiler } from '../wire/validation.js';
import { addJsonBodyParser } from './body-parser.js';
import { identifyHook, linkTokenOf, requireKey } from './auth.js';
import { errorPage, PAGE_HEADERS, prefersHtml } from './pages.js';
import { ResultLinks } from './result-links.js';
import type { RouteDeps } from './routes/common.js';
import {
  answerUnroutedRequests,
  capConnectionsPerClient,
  clientErrorHandler,
  DEFAULT_HTTP_LIMITS,
  errorHandler,
  fastifyTimeoutOptions,
  RouteMethods,
} from '@evident/http-guards';
import { registerPublicRoutes } from './routes/public.js';
import { submitRoutes } from './routes/submit.js';
import { jobRoutes } from './routes/jobs.js';
import { resultRoutes } from './routes/results.js';
import { targetRoutes } from './routes/targets.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: (KeyRecord & { limits: PlanLimits }) | null;
    /** The store's record of the caller's key, as `identify` found it. */
    keyRecord: KeyRecord | null;
    authProblem: string | null;
    /** Why a results link was refused (it answers instead of 401). */
    authError: ApiError | null;
    /** The caller is a signed results link, not a key holder: it may only read that job's results. */
    viaLink: boolean;
  }
}

export interface AppDeps {
  config: ServiceConfig;
  store: Store;
  /** The job kinds this server serves: one submission route each. */
  kinds: readonly AnyKind[];
  preparePool: ThreadPool;
  /** Parses, checks and prepares bodies above the inline limit, so small submissions never wait behind them. */
  largeBodyPool?: ThreadPool | undefined;
  /** Hands a stored job to the queue. */
  enqueue(job: JobRecord): Promise<void>;
  /** Stops a cancelled job if it runs in this process. */
  cancelled(jobId: string): void;
  redis?: Redis | undefined;
  /** Anonymous callers (no or bad key) are limited per IP to this many requests a minute. */
  anonymousRpm?: number;
  /** The process's one logger (see log.ts). */
  logger: FastifyBaseLogger;
}

/** The shared handler as it is: for router failures, answered before a request has hooks run (never a page). */
const plainErrors = errorHandler<FastifyRequest, FastifyReply>();

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store } = deps;
  const limits = { ...DEFAULT_HTTP_LIMITS, ...definedLimits(config) };
  const app = Fastify({
    bodyLimit: config.bodyLimitBytes,
    // Slow or stalled requests are cut (408), and the parser's refusals answer in the error shape.
    ...fastifyTimeoutOptions(limits),
    clientErrorHandler: clientErrorHandler(),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: false,
    loggerInstance: deps.logger,
    // Fastify makes a child logger per request to bind its id; with every level off (the tests, bench:api) nothing
    // is ever written through it, and making one is a measurable share of a status request.
    childLoggerFactory: (logger, bindings, opts) =>
      logger.level === 'silent' && opts.level === undefined && opts.serializers === undefined
        ? logger
        : logger.child(bindings, opts),
    // Router-level failures (bad URL encoding, over-long path parameters) answer in the one error shape too.
    frameworkErrors: (err, req, reply) => {
      const e = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? notFound() : invalidRequest('the request URL is malformed');
      const r = reply as unknown as FastifyReply;
      r.header('x-request-id', req.id);
      plainErrors(e, req as FastifyRequest, r);
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true } },
  });
  capConnectionsPerClient(app.server, limits.maxConnectionsPerClient);
  const routeMethods = new RouteMethods();
  // CONNECT and an Expect Node's server cannot meet never reach the router: answered here, in the error shape.
  answerUnroutedRequests(app.server, () => routeMethods.all());
  app.addHook('onRoute', (route) => routeMethods.add(route));
  app.setValidatorCompiler(typeboxValidatorCompiler);
  addJsonBodyParser(app, config);
  app.decorateRequest('apiKey', null);
  app.decorateRequest('keyRecord', null);
  app.decorateRequest('authProblem', null);
  app.decorateRequest('bodyDigest', null);
  app.decorateRequest('authError', null);
  app.decorateRequest('viaLink', false);
  // Hooks on every request are callback-style: an async hook costs a promise per request (bench:api).
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  // A NUL byte cannot be stored or looked up in PostgreSQL text; refused here for both stores alike. Parameters
  // and query values are decoded from the URL, and Node's parser refuses a raw NUL there, so only a URL holding
  // `%00` can carry one: the others skip the walk.
  app.addHook('preValidation', (req, _reply, done) => {
    if (!req.url.includes('%00')) return done();
    const problems = [...nulProblems(req.params, 'params'), ...nulProblems(req.query, 'querystring')];
    done(problems.length ? new InvalidParametersError(problems) : undefined);
  });

  // Counts per key (or per IP without one); applied as a hook of the authenticated context, not globally, so
  // that public routes are never limited.
  await app.register(rateLimit, {
    global: false,
    timeWindow: 60_000,
    max: (req) => req.apiKey?.limits.rpm ?? deps.anonymousRpm ?? 60,
    keyGenerator: (req) => (req.apiKey ? `key:${req.apiKey.key_id}` : `ip:${req.ip}`),
    redis: deps.redis,
    nameSpace: 'evident-rl-',
    skipOnError: true,
    errorResponseBuilder: (_req, ctx) =>
      new ApiError('rate_limited', `rate limit of ${ctx.max} requests per minute exceeded; retry in ${ctx.after}`, {
        retryAfter: Math.ceil(ctx.ttl / 1000),
      }),
  });
  const links = new ResultLinks(store);
  const routeDeps: RouteDeps = { ...deps, links };
  const identify = identifyHook(store, links);
  const limit = app.rateLimit();

  // Every error answer is made by the one handler of both servers (@evident/http-guards: toWireError, 5xx logged with
  // the request id the body carries, Retry-After for 429s). A person who opened a results link in a browser reads
  // a page, not JSON.
  const answerError = errorHandler<FastifyRequest, FastifyReply>({
    answer: (wire, req, reply) => {
      if (linkTokenOf(req) === undefined || !prefersHtml(req)) return false;
      reply
        .status(wire.status)
        .headers(PAGE_HEADERS)
        .type('text/html; charset=utf-8')
        .send(errorPage(wire.status, wire.body.error));
      return true;
    },
  });
  app.setErrorHandler(answerError);

  await registerPublicRoutes(app, routeDeps);

  // The /v1 resources, each a plugin, inside one context whose hooks authenticate and rate-limit every request.
  await app.register(async (authed) => {
    authed.addHook('onRequest', identify);
    authed.addHook('onRequest', limit);
    authed.addHook('onRequest', requireKey);
    await authed.register(submitRoutes, routeDeps);
    await authed.register(jobRoutes, routeDeps);
    await authed.register(resultRoutes, routeDeps);
    await authed.register(targetRoutes, routeDeps);
  });

  // Unknown routes are authenticated and count against the caller's rate limit too (and carry its headers).
  // A known path asked with another method is 405 with Allow.
  app.setNotFoundHandler({ preHandler: [identify, limit, requireKey] }, async (req, reply) => {
    const allowed = routeMethods.allowed(req.url);
    if (allowed.length) {
      reply.header('allow', allowed.join(', '));
      throw new ApiError('method_not_allowed', `${req.method} is not allowed here; use ${allowed.join(', ')}`);
    }
    throw notFound(`no route ${req.method} ${req.url.split('?')[0]}`);
  });

  return app;
}

/** The limits set in the config (a config built by hand may lack them: the defaults apply). */
function definedLimits(config: ServiceConfig) {
  const out: Partial<typeof DEFAULT_HTTP_LIMITS> = {};
  for (const k of Object.keys(DEFAULT_HTTP_LIMITS) as Array<keyof typeof DEFAULT_HTTP_LIMITS>) {
    const v = (config as Partial<ServiceConfig>)[k];
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  }
  return out;
}

/** Each string value of `params`/`querystring` with a NUL byte, as a problem naming it. */
function nulProblems(values: unknown, where: string): Problem[] {
  if (!values || typeof values !== 'object') return [];
  const out: Problem[] = [];
  for (const [k, v] of Object.entries(values)) {
    const strings = Array.isArray(v) ? v : [v];
    if (strings.some((s) => typeof s === 'string' && s.includes('\u0000'))) {
      out.push({ path: `${where}:${pointer(k)}`, message: 'must not contain a NUL byte' });
    }
  }
  return out;
}
