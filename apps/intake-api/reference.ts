import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Where people read the API: a Swagger UI page over the generated document, served by the intake API itself. */
export const REFERENCE_PATH = '/docs';

/** The OpenAPI document's one address, which the page reads and links and the docs name. */
export const OPENAPI_PATH = `${REFERENCE_PATH}/openapi.json`;

/**
 * The package's own addresses of the document, which it always registers: each redirects to the one address, so that
 * a link copied from an earlier page keeps working and no second address is ever named.
 */
const PACKAGE_DOCUMENT_PATHS = [`${REFERENCE_PATH}/json`, `${REFERENCE_PATH}/yaml`];

function toTheOneAddress(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (!PACKAGE_DOCUMENT_PATHS.includes(request.routeOptions.url ?? '')) return done();
  void reply.redirect(OPENAPI_PATH, 301);
}

/**
 * @fastify/swagger-ui's options: its assets are served from the package (no CDN, so it works where the API has no
 * way out), under a content security policy of its own. The page reads, and links, the document at OPENAPI_PATH
 * (`urls` is the one setting the package lets through in place of its own `./json`).
 */
export function referenceOptions(): FastifySwaggerUiOptions {
  return {
    routePrefix: REFERENCE_PATH,
    staticCSP: true,
    uiConfig: {
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      urls: [{ url: OPENAPI_PATH, name: 'intake API' }],
    },
    uiHooks: { onRequest: toTheOneAddress },
  };
}
