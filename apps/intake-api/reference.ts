import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/** Where people read the API: a Swagger UI page over the generated document, served by the intake API itself. */
export const REFERENCE_PATH = '/docs';

/**
 * @fastify/swagger-ui's options: its assets are served from the package (no CDN, so it works where the API has no
 * way out), under a content security policy of its own; it reads the same document as `/docs/openapi.json`.
 */
export function referenceOptions(): FastifySwaggerUiOptions {
  return {
    routePrefix: REFERENCE_PATH,
    staticCSP: true,
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
  };
}
