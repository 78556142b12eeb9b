// kb-console: Fastify app with the REST API under /api/v1 (OpenAPI 3.1 from the route schemas, docs at
// /api/v1/docs) and the web console's static page at /. One error shape everywhere.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import type { KbDB } from '@evident/kb';
import { StartupError } from '../surface/open-base.js';
import { consoleErrorHandler } from '../surface/errors.js';
import type { Logger } from '../surface/logger.js';
import { bearerGuard } from './auth.js';
import { heavyLane } from './heavy-lane.js';
import { IdleMemory } from './idle-memory.js';
import { registerRoutes } from './routes.js';
import { registerReasoningRoutes } from './reasoning-routes.js';
import { registerTopologyRoutes } from './topology-routes.js';
import { registerQueryRoutes } from './query-routes.js';
import {
  allowedHostNames,
  answerUnroutedRequests,
  capConnectionsPerClient,
  clientErrorHandler,
  DEFAULT_HTTP_LIMITS,
  fastifyTimeoutOptions,
  hostName,
  httpError,
  type HostLookup,
  type HttpLimits,
  isLoopbackAddress,
  depthBoundedJsonParser,
  RouteMethods,
  systemLookup,
} from './http-guards.js';

export interface ConsoleOptions {
  /** When set, every /api/v1 route needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Largest request body in bytes (default 4 MiB); larger gets 413. */
  bodyLimit?: number;
  /** Fastify's logger options (default: none) ... */
  logger?: FastifyServerOptions['logger'];
  /** ... or a pino logger to log through (the bins pass theirs: see surface/logger.ts). */
  loggerInstance?: Logger;
  /** Request, header and keep-alive timeouts and the per-address connection cap (defaults: DEFAULT_HTTP_LIMITS). */
  limits?: Partial<HttpLimits>;
  /** The interface it is bound to: its name is an accepted Host (see allowedHosts). */
  host?: string;
  /**
   * Further names the Host header may carry. Loopback names and the bound host are always accepted; any other
   * Host is refused (421), so that a page renamed to point at this machine (DNS rebinding) cannot use it.
   */
  allowedHosts?: readonly string[];
  /**
   * Once listening, build the base's replica thread (what queries and what-ifs run on) in the background, so that
   * the first of them does not wait for it (seconds on a large base). Default false; kb-console sets it.
   */
  warmReplica?: boolean;
}

export const API_PREFIX = '/api/v1';

/** '/a/b?x=1' -> ['/a/b', '?x=1']. */
const splitUrl = (url: string): [string, string] => {
  const q = url.indexOf('?');
  return q < 0 ? [url, ''] : [url.slice(0, q), url.slice(q)];
};

/** The web console's files: beside this module in the sources, or in src/ when running from dist/. */
function webRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [join(here, 'web'), join(here, '..', '..', '..', 'src', 'console', 'web')]) {
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  throw new StartupError(`kb-console: web console files not found next to ${here}`);
}

export async function buildConsole(db: KbDB, options: ConsoleOptions = {}): Promise<FastifyInstance> {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
  const bodyLimit = options.bodyLimit ?? 4 * 1024 * 1024;
  // Every error answer, the router's and the hooks' included, is made by the one handler (@evident/http-guards).
  const answerError = consoleErrorHandler(bodyLimit);
  const app = createApp(options, limits, bodyLimit, answerError);
  capConnectionsPerClient(app.server, limits.maxConnectionsPerClient);
  // Heavy calls wait, between two, until the connections and requests that came meanwhile are taken in.
  heavyLane.watch(app.server);
  // Garbage a burst left is collected once the console is quiet (idle-memory.ts).
  const idle = new IdleMemory(() => heavyLane.size > 0);
  idle.watch(app.server);
  app.addHook('onClose', async () => idle.stop());
  acceptJsonBodiesOnly(app);
  guardRouting(app, options, answerError);
  await registerOpenApi(app, options);
  await registerApi(app, db, options);
  await registerStaticFiles(app);
  return app;
}

type ErrorAnswer = ReturnType<typeof consoleErrorHandler>;

/** The Fastify instance with the console's timeouts, logger, body limit and schema validation. */
function createApp(
  options: ConsoleOptions,
  limits: HttpLimits,
  bodyLimit: number,
  answerError: ErrorAnswer,
): FastifyInstance {
  return Fastify({
    // Slow or stalled requests are cut (408); the parser's refusals and router failures answer in the error shape.
    ...fastifyTimeoutOptions(limits),
    clientErrorHandler: clientErrorHandler(),
    frameworkErrors: (err, req, reply) => {
      answerError(
        httpError('invalid_request', `the request URL is malformed (${err.code})`),
        req,
        reply as unknown as FastifyReply,
      );
    },
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance as FastifyBaseLogger }
      : { logger: options.logger ?? false }),
    bodyLimit,
    genReqId: () => randomUUID(),
    // Unknown fields are refused (400 naming them), not silently dropped.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  });
}

function acceptJsonBodiesOnly(app: FastifyInstance): void {
  // JSON only, as the README's error table says: a text/plain body is 415, not a string handed to the schema.
  // A body-less request with any Content-Type goes through (decided from the headers, before reading a byte).
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', (req, _payload, done) => {
    const h = req.headers;
    if (h['transfer-encoding'] === undefined && (h['content-length'] ?? '0') === '0') return done(null, undefined);
    const err = new Error('send the body as application/json') as Error & { code: string; statusCode: number };
    err.code = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
    err.statusCode = 415;
    done(err, undefined);
  });
  // A body nested deeper than MAX_BODY_DEPTH is refused before it is parsed (400 naming the limit and the path);
  // else Fastify's own JSON parser, with its __proto__ and constructor refusals.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, depthBoundedJsonParser(app));
}

/** Unroutable requests, Host names not allowed, errors and unknown routes, all answered in the error shape. */
function guardRouting(app: FastifyInstance, options: ConsoleOptions, answerError: ErrorAnswer): void {
  const routeMethods = new RouteMethods();
  // CONNECT (which Node's server leaves unanswered) and an Expect it cannot meet (an empty 417) never reach the
  // router: answered here, in the error shape, the connection closed.
  answerUnroutedRequests(app.server, () => routeMethods.all());
  app.addHook('onRoute', (route) => routeMethods.add(route));
  const hosts = allowedHostNames(options.host, options.allowedHosts);
  app.addHook('onRequest', async (req) => {
    const name = hostName(req.headers.host ?? '');
    if (hosts.has(name)) return;
    throw httpError(
      'host_not_allowed',
      `Host '${name}' is not a name of this console; add it with --allowed-hosts (KB_CONSOLE_ALLOWED_HOSTS)`,
    );
  });

  app.setErrorHandler(answerError);

  app.setNotFoundHandler(async (req, reply) => {
    const allowed = routeMethods.allowed(req.url);
    if (allowed.length) {
      reply.header('allow', allowed.join(', '));
      throw httpError('method_not_allowed', `${req.method} is not allowed here; use ${allowed.join(', ')}`);
    }
    throw httpError('not_found', `no route ${req.method} ${req.url.split('?')[0]}`);
  });
}

/** The OpenAPI 3.1 document made from the route schemas; only the API's own routes are listed. */
async function registerOpenApi(app: FastifyInstance, options: ConsoleOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Evident KB console API',
        version: '1.0.0',
        description:
          'REST surface of @evident/kb: claims with provenance, entities, query frames, paths, retraction, health and insights. ' +
          'Errors always have the shape { "error": { "code", "message", "details"? } }. Bearer auth applies when the server runs with KB_CONSOLE_TOKEN.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: options.token ? [{ bearer: [] }] : [],
    },
    transform: ({ schema, url }) => {
      const hidden =
        !url.startsWith(`${API_PREFIX}/`) ||
        url.startsWith(`${API_PREFIX}/docs`) ||
        url === `${API_PREFIX}/openapi.json`;
      return { schema: hidden ? { ...(schema ?? {}), hide: true } : schema, url } as never;
    },
  });
}

/** The REST API under API_PREFIX (bearer-guarded when a token is set), with its OpenAPI document and docs page. */
async function registerApi(app: FastifyInstance, db: KbDB, options: ConsoleOptions): Promise<void> {
  await app.register(
    async (api) => {
      if (options.token) api.addHook('onRequest', bearerGuard(options.token));
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(swaggerUi, {
        routePrefix: '/docs',
        // Where the page is not at .../docs/ exactly (a query after the slash), it names its assets by absolute
        // path, made of this and routePrefix: without it they pointed at /docs/static/..., outside the API.
        indexPrefix: API_PREFIX,
        uiConfig: { docExpansion: 'list', deepLinking: true },
        // The page's assets are relative (./static/...), which resolve under /api/v1/docs/ only: /api/v1/docs,
        // the address the start messages and the web console link give, is sent there (its query kept).
        uiHooks: {
          onRequest: async (req, reply) => {
            const [path, query] = splitUrl(req.url);
            if (path === `${API_PREFIX}/docs`) return reply.redirect(`${API_PREFIX}/docs/${query}`, 302);
          },
        },
      });
      await registerRoutes(api, db);
      await registerReasoningRoutes(api, db);
      await registerTopologyRoutes(api, db);
      await registerQueryRoutes(api, db);
    },
    { prefix: API_PREFIX },
  );
}

/** The web console's page at / and the cytoscape script it loads. */
async function registerStaticFiles(app: FastifyInstance): Promise<void> {
  // Served from node_modules: the machine the console runs on may have no internet (no CDN).
  const cytoscapeDist = dirname(createRequire(import.meta.url).resolve('cytoscape'));
  await app.register(fastifyStatic, {
    root: cytoscapeDist,
    prefix: '/vendor/cytoscape/',
    allowedPath: (path) => path === '/cytoscape.min.js',
    decorateReply: false,
  });
  await app.register(fastifyStatic, {
    root: webRoot(),
    prefix: '/',
    index: 'index.html',
    setHeaders: (res) => {
      res.header('X-Content-Type-Options', 'nosniff');
      res.header(
        'Content-Security-Policy',
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
      );
    },
  });
}

export interface StartConsoleOptions extends ConsoleOptions {
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * How `host` is resolved to judge whether it is loopback (default: dns.lookup with all: true). Tests pass their
   * own to stand for a name that resolves somewhere else without a DNS server.
   */
  lookup?: HostLookup;
}

export interface RunningConsole {
  app: FastifyInstance;
  /** Where it listens, e.g. `http://127.0.0.1:8080` (no trailing slash). */
  url: string;
  /** Stops listening (the base stays open: it is the caller's). */
  close(): Promise<void>;
}

/**
 * Builds the console on `db` and listens: what kb-console runs, and what `npm start` runs in its own process.
 * Rejects with a StartupError when it cannot listen.
 */
export async function startConsole(db: KbDB, options: StartConsoleOptions = {}): Promise<RunningConsole> {
  const port = options.port ?? 8080;
  const host = options.host ?? '127.0.0.1';
  const { lookup: _lookup, warmReplica: warm, ...consoleOptions } = options;
  // Anyone who can reach a non-loopback interface could write and retract: not without a token. What is judged is
  // where the name leads, every address of it (listen binds one of them), then the addresses actually bound.
  if (!options.token) await refuseOffLoopback(host, options.lookup ?? systemLookup);
  const app = await buildConsole(db, { ...consoleOptions, host });
  try {
    await app.listen({ port, host });
  } catch (e) {
    await app.close();
    throw new StartupError(`kb-console: cannot listen on ${host}:${port}: ${(e as Error).message}`, { cause: e });
  }
  if (!options.token) {
    // The name may have been resolved again by listen, to something else (a DNS answer that changed meanwhile).
    const off = app
      .addresses()
      .map((a) => (typeof a === 'string' ? a : a.address))
      .filter((a) => !isLoopbackAddress(a));
    if (off.length) {
      await app.close();
      throw noToken(host, 'bound', off);
    }
  }
  if (warm) warmReplica(db, app.log);
  const addr = app.server.address();
  const url =
    typeof addr === 'object' && addr
      ? `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`
      : String(addr);
  return { app, url, close: () => app.close() };
}

/**
 * A query of nothing on the replica thread, not awaited: the thread starts and is fed the log a slice per event-loop
 * turn (requests are answered in between), after listening, so that neither listening nor the first query waits
 * for it. An idle replica still ends after its idle time (configureOffThread's idle_ms); the next call builds it.
 */
function warmReplica(db: KbDB, log: FastifyBaseLogger): void {
  const started = performance.now();
  db.rawQueryJson('RETURN 1').then(
    () => log.info({ ms: Math.round(performance.now() - started) }, 'replica thread ready'),
    (e: unknown) => {
      if ((e as { code?: unknown }).code === 'closed') return;
      log.warn({ err: e }, 'the replica thread could not be built ahead; the first query or what-if will try again');
    },
  );
}

const noToken = (host: string, how: string, addresses: readonly string[]) =>
  new StartupError(
    `kb-console: refusing to listen on ${host}${how !== 'bound' && addresses.length === 1 && addresses[0] === host ? '' : ` (${how} ${addresses.join(', ')})`} without KB_CONSOLE_TOKEN: not loopback; set it (clients send "Authorization: Bearer <token>") or bind 127.0.0.1`,
  );

/** Refuses a host any of whose addresses is not loopback (127.0.0.0/8, ::1). */
async function refuseOffLoopback(host: string, lookup: HostLookup): Promise<void> {
  let addresses: readonly { address: string }[];
  try {
    addresses = await lookup(host.replace(/^\[(.*)\]$/, '$1'));
  } catch (e) {
    throw new StartupError(`kb-console: cannot resolve the host ${host}: ${(e as Error).message}`, { cause: e });
  }
  if (addresses.length === 0) throw new StartupError(`kb-console: the host ${host} resolves to no address`);
  const off = addresses.filter((a) => !isLoopbackAddress(a.address));
  if (off.length)
    throw noToken(
      host,
      'resolves to',
      off.map((a) => a.address),
    );
}
