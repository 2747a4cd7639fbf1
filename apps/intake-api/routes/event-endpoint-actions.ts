import { redeliver } from '../../../src/events/endpoint-changes.js';
import { REDELIVER_LIMIT, ROTATION_GRACE } from '../../../src/events/endpoint-rules.js';
import { audited } from '../audit.js';
import type { IntakeApp, IntakeDeps } from '../deps.js';
import { notFound } from '../errors.js';
import { eventsOf } from '../event-access.js';
import { ownedEndpoint } from '../../../src/access/owned-object.js';
import {
  DeliveryList,
  EndpointParams,
  EndpointWithSecret,
  RedeliverRequest,
  RedeliverResponse,
  RotateRequest,
} from '../event-schemas.js';
import { answer, bodyAnswers, commonAnswers, TAGS } from '../openapi.js';
import { PageQuery } from '../pagination.js';
import { ErrorResponse } from '../schemas.js';

const access = { scope: 'events:manage' } as const;

/**
 * `POST /event-endpoints/:endpointId/rotate-secret`, `GET …/deliveries`, `POST …/redeliver`
 * (docs/integrating/events.md).
 */
export function eventEndpointActionRoutes(app: IntakeApp, deps: IntakeDeps): void {
  app.post(
    '/event-endpoints/:endpointId/rotate-secret',
    {
      schema: {
        operationId: 'rotateEventEndpointSecret',
        tags: [TAGS.eventEndpoints.name],
        summary: 'A new signing secret, answered once; the old one keeps signing beside it for the grace period',
        params: EndpointParams,
        body: RotateRequest.optional(),
        response: {
          ...bodyAnswers,
          200: answer('The endpoint and its new secret', EndpointWithSecret),
          404: answer('No such endpoint', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access, owns: 'endpoint', audit: 'event-endpoint.rotate' },
    },
    async (request, reply) => {
      const { id, tenant } = ownedEndpoint(request);
      const grace = request.body?.graceSeconds ?? ROTATION_GRACE.defaultSeconds;
      const rotated = await eventsOf(deps).endpoints.rotate(id, tenant, grace);
      if (!rotated) throw notFound('no such event endpoint');
      await audited(deps.access, request, { action: `event-endpoint.rotate:${id}`, tenant });
      return reply.send(rotated);
    },
  );

  app.get(
    '/event-endpoints/:endpointId/deliveries',
    {
      schema: {
        operationId: 'listEventDeliveries',
        tags: [TAGS.eventEndpoints.name],
        summary: "An endpoint's delivery attempts, newest first: status codes, latency, the next retry",
        params: EndpointParams,
        querystring: PageQuery,
        response: {
          200: answer('A page of attempts', DeliveryList),
          400: answer('`param` names the invalid parameter', ErrorResponse),
          404: answer('No such endpoint', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: {
        access,
        owns: 'endpoint',
        audit: { none: 'status codes, latencies and times of attempts, no payload' },
      },
    },
    async (request, reply) => {
      const { limit, pageToken } = request.query;
      const page = await eventsOf(deps).log.deliveries(ownedEndpoint(request).id, {
        limit,
        ...(pageToken ? { pageToken } : {}),
      });
      return reply.send(page);
    },
  );

  app.post(
    '/event-endpoints/:endpointId/redeliver',
    {
      schema: {
        operationId: 'redeliverEvents',
        tags: [TAGS.eventEndpoints.name],
        summary: `Deliver one kept event again (same webhook-id), or every one not acknowledged since a time (at most ${REDELIVER_LIMIT})`,
        params: EndpointParams,
        body: RedeliverRequest,
        response: {
          ...bodyAnswers,
          202: answer('Queued for delivery', RedeliverResponse),
          404: answer('No such endpoint or event', ErrorResponse),
          409: answer('The endpoint is disabled: enable it first (PATCH `disabled: false`)', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access, owns: 'endpoint', audit: 'event-endpoint.redeliver' },
    },
    async (request, reply) => {
      const endpoint = ownedEndpoint(request);
      const body = request.body;
      const choice = 'eventId' in body ? body : { failedSince: new Date(body.failedSince) };
      // A disabled endpoint (409) and an event it never had (404) are refusals the error handler answers.
      const queued = await redeliver(eventsOf(deps), endpoint, choice);
      await audited(deps.access, request, {
        action: `event-endpoint.redeliver:${endpoint.id}`,
        tenant: endpoint.tenant,
      });
      return reply.code(202).send({ queued });
    },
  );
}
