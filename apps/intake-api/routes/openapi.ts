import type { IntakeApp } from '../deps.js';
import { OPENAPI_PATH } from '../openapi.js';

/** `GET /docs/openapi.json`: the OpenAPI 3.1 document @fastify/swagger generates from the routes; no API key. */
export function openApiRoute(app: IntakeApp): void {
  app.get(
    OPENAPI_PATH,
    { schema: { operationId: 'getOpenApiDocument', summary: 'This document', security: [] } },
    (_request, reply) => reply.send(app.swagger()),
  );
}
