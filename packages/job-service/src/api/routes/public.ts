// Routes without authentication: health for load balancers, the OpenAPI document and the rendered docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './common.js';

/** Registered on the root instance itself (not encapsulated): @fastify/swagger must see every context's routes. */
export async function registerPublicRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Evident discovery job service',
        version: '1.0.0',
        description:
          'Asynchronous target-discovery and compound-generation jobs. ' +
          'Authenticate with `Authorization: Bearer <API key>`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs' });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', store: deps.store.backend }));
}
