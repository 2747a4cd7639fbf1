import type { IntakeApp } from '../deps.js';
import { TAGS } from '../openapi.js';
import { OPENAPI_PATH } from '../reference.js';

const SHAPE_ONLY = "the API's shape, nothing of any caller";

/** `GET /docs/openapi.json`: the OpenAPI 3.1 document @fastify/swagger generates from the routes; no API key. */
export function openApiRoute(app: IntakeApp): void {
  app.get(
    OPENAPI_PATH,
    {
      schema: {
        operationId: 'getOpenApiDocument',
        tags: [TAGS.reference.name],
        summary: 'This document: the OpenAPI 3.1 description of the API and of the events it sends',
        security: [],
      },
      config: { access: { open: SHAPE_ONLY }, owns: 'none', audit: { none: SHAPE_ONLY } },
    },
    (_request, reply) => reply.send(app.swagger()),
  );
}
