import { redeliver } from '../../../src/events/endpoint-changes.js';
import { EndpointRefused, REDELIVER_LIMIT, ROTATION_GRACE } from '../../../src/events/endpoint-rules.js';
import { audit } from '../access.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { eventsOf, notFound, ownEndpoint, seenTenant } from '../event-access.js';
import {
  DeliveriesQuery,
  DeliveryList,
  EndpointParams,
  EndpointWithSecret,
  RedeliverRequest,
  RedeliverResponse,
  RotateRequest,
} from '../event-schemas.js';
import { answer, bodyAnswers, commonAnswers } from '../openapi.js';
import { ErrorResponse } from '../schemas.js';

const scope = 'events:manage' as const;

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
      config: { scope },
    },
    async (request, reply) => {
      const events = eventsOf(deps);
      const grace = request.body?.graceSeconds ?? ROTATION_GRACE.defaultSeconds;
      const rotated = await events.endpoints.rotate(request.params.endpointId, seenTenant(request), grace);
      if (!rotated) return notFound(reply);
      await audit(deps.access, request, {
        action: `event-endpoint.rotate:${rotated.endpoint.id}`,
        tenant: rotated.endpoint.tenant,
        outcome: 'ok',
      });
      return reply.send(rotated);
    },
  );

  app.get(
    '/event-endpoints/:endpointId/deliveries',
    {
      schema: {
        operationId: 'listEventDeliveries',
        summary: "An endpoint's delivery attempts, newest first: status codes, latency, the next retry",
        params: EndpointParams,
        querystring: DeliveriesQuery,
        response: {
          200: answer('A page of attempts', DeliveryList),
          400: answer('`param` names the invalid parameter', ErrorResponse),
          404: answer('No such endpoint', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { scope },
    },
    async (request, reply) => {
      const events = eventsOf(deps);
      const endpoint = await ownEndpoint(events, request, request.params.endpointId);
      if (!endpoint) return notFound(reply);
      const { limit, before } = request.query;
      const deliveries = await events.log.deliveries(endpoint.id, { limit, ...(before ? { before } : {}) });
      const last = deliveries.at(-1);
      return reply.send({ deliveries, ...(deliveries.length === limit && last ? { next: last.attemptedAt } : {}) });
    },
  );

  app.post(
    '/event-endpoints/:endpointId/redeliver',
    {
      schema: {
        operationId: 'redeliverEvents',
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
      config: { scope },
    },
    async (request, reply) => {
      const events = eventsOf(deps);
      const endpoint = await ownEndpoint(events, request, request.params.endpointId);
      if (!endpoint) return notFound(reply);
      const body = request.body;
      const choice = 'eventId' in body ? body : { failedSince: new Date(body.failedSince) };
      let queued;
      try {
        queued = await redeliver(events, endpoint, choice, (fn) => withDeadline(deps, fn));
      } catch (err) {
        if (err instanceof EndpointRefused && err.kind === 'disabled') {
          return reply.code(409).send({ error: 'endpoint_disabled', message: err.reason });
        }
        if (err instanceof EndpointRefused) return reply.code(404).send({ error: 'not_found', message: err.reason });
        return replyWithError(request, reply, err);
      }
      await audit(deps.access, request, {
        action: `event-endpoint.redeliver:${endpoint.id}`,
        tenant: endpoint.tenant,
        outcome: 'ok',
      });
      return reply.code(202).send({ queued });
    },
  );
}
