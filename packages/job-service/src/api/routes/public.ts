// Routes without authentication: health for load balancers, the OpenAPI document and the rendered docs, and `/`.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { OptionalKind } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { homeDocument, homePage, PAGE_HEADERS, prefersHtml } from '../pages.js';
import { originOf, type RouteDeps } from './common.js';

/** Registered on the root instance itself (not encapsulated): @fastify/swagger must see every context's routes. */
export async function registerPublicRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  // @fastify/swagger marks every request body required; a route whose body schema is Type.Optional(...) takes none.
  const optionalBodies = new Set<string>();
  app.addHook('onRoute', (route) => {
    if ((route.schema?.body as { [OptionalKind]?: string } | undefined)?.[OptionalKind]) {
      for (const method of [route.method].flat()) {
        optionalBodies.add(`${method.toLowerCase()} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
      }
    }
  });
  await app.register(swagger, {
    transformObject: (doc) => {
      if (!('openapiObject' in doc)) return doc.swaggerObject;
      for (const [path, ops] of Object.entries(doc.openapiObject.paths ?? {})) {
        for (const [method, op] of Object.entries(ops as Record<string, { requestBody?: { required?: boolean } }>)) {
          if (op.requestBody && optionalBodies.has(`${method} ${path}`)) op.requestBody.required = false;
        }
      }
      return doc.openapiObject;
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Evident discovery job service',
        version: '1.0.0',
        description:
          'Asynchronous target-discovery and compound-generation jobs. ' +
          "Authenticate with `Authorization: Bearer <API key>`. A completed job's results open in a browser " +
          'without the key through a signed, expiring link: `POST /v1/results/{job_id}/links`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs' });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', store: deps.store.backend }));
  // A person who opens the service's address gets a page saying where the docs are, not a 401.
  app.get('/', { schema: { hide: true } }, async (req, reply) => {
    const origin = originOf(deps, req);
    const doc = homeDocument(origin);
    if (!prefersHtml(req)) return doc;
    return reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(homePage(doc, origin));
  });
}
