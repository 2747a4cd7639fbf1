import type { IntakeApp } from '../deps.js';
import { OPENAPI_PATH } from '../openapi.js';

const SHAPE_ONLY = "the API's shape, nothing of any caller";

/** `GET /docs/openapi.json`: the OpenAPI 3.1 document @fastify/swagger generates from the routes; no API key. */
export function openApiRoute(app: IntakeApp): void {
  app.get(
    OPENAPI_PATH,
    {
      schema: { operationId: 'getOpenApiDocument', summary: 'This document', security: [] },
      config: { access: { open: SHAPE_ONLY }, owns: 'none', audit: { none: SHAPE_ONLY } },
    },
    (_request, reply) => reply.send(app.swagger()),
  );
}
