import type { FastifyReply, FastifyRequest } from 'fastify';
import { createEndpoint } from '../../../src/events/endpoint-changes.js';
import { EndpointRefused, tenantToCreate } from '../../../src/events/endpoint-rules.js';
import type { EndpointView } from '../../../src/events/endpoints.js';
import { audit } from '../access.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { createsFor, eventsOf, notFound, ownEndpoint, seenTenant } from '../event-access.js';
import {
  Endpoint,
  EndpointCreateRequest,
  EndpointList,
  EndpointParams,
  EndpointUpdateRequest,
  EndpointWithSecret,
} from '../event-schemas.js';
import { answer, bodyAnswers, commonAnswers } from '../openapi.js';
import { ErrorResponse } from '../schemas.js';

const scope = 'events:manage' as const;
const unavailable = { 503: answer('Temporal or the database is unavailable', ErrorResponse) };

/**
 * `POST|GET /event-endpoints`, `GET|PATCH|DELETE /event-endpoints/:endpointId` (docs/integrating/events.md): a tenant's
 * endpoints, each change audited and told to the tenant's dispatcher before the answer. Another tenant's endpoint is a
 * 404.
 */
export function eventEndpointRoutes(app: IntakeApp, deps: IntakeDeps): void {
  const tell = (tenant: string) => withDeadline(deps, () => deps.events!.dispatchers.refresh(tenant));
  /** A change made: audited, then told to the dispatcher; false when Temporal could not be told (answered already). */
  const changed = async (request: FastifyRequest, reply: FastifyReply, endpoint: EndpointView, verb: string) => {
    await audit(deps.access, request, {
      action: `event-endpoint.${verb}:${endpoint.id}`,
      tenant: endpoint.tenant,
      outcome: 'ok',
    });
    try {
      await tell(endpoint.tenant);
      return true;
    } catch (err) {
      await replyWithError(request, reply, err);
      return false;
    }
  };

  app.post(
    '/event-endpoints',
    {
      schema: {
        operationId: 'createEventEndpoint',
        summary: 'Subscribe an endpoint to events; its signing secret is answered this once',
        body: EndpointCreateRequest,
        response: {
          ...bodyAnswers,
          201: answer('The endpoint and its secret', EndpointWithSecret),
          ...commonAnswers,
          ...unavailable,
        },
      },
      config: { scope },
    },
    async (request, reply) => {
      const events = eventsOf(deps);
      const { tenant: named, ...spec } = request.body;
      let tenant: string;
      try {
        tenant = tenantToCreate(createsFor(request), named);
      } catch (err) {
        if (!(err instanceof EndpointRefused)) throw err;
        return reply.code(403).send({ error: 'forbidden', param: err.field, message: err.reason });
      }
      let created;
      try {
        created = await createEndpoint(events, { ...spec, tenant }, (fn) => withDeadline(deps, fn));
      } catch (err) {
        return replyWithError(request, reply, err);
      }
      await audit(deps.access, request, {
        action: `event-endpoint.create:${created.endpoint.id}`,
        tenant,
        outcome: 'ok',
      });
      request.log.info({ endpointId: created.endpoint.id }, 'event endpoint created');
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/event-endpoints',
    {
      schema: {
        operationId: 'listEventEndpoints',
        summary: "The caller's tenant's endpoints, with their status and why a disabled one stopped",
        response: {
          200: answer('The endpoints', EndpointList),
          400: answer('`param` names a query parameter this route does not take', ErrorResponse),
          ...commonAnswers,
          ...unavailable,
        },
      },
      config: { scope },
    },
    async (request, reply) => {
      const events = eventsOf(deps);
      return reply.send({ endpoints: await events.endpoints.list(seenTenant(request)) });
    },
  );

  app.get(
    '/event-endpoints/:endpointId',
    {
      schema: {
        operationId: 'getEventEndpoint',
        summary: 'One endpoint',
        params: EndpointParams,
        response: {
          200: answer('The endpoint', Endpoint),
          400: answer('`param` names the invalid parameter', ErrorResponse),
          404: answer('No such endpoint', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { scope },
    },
    async (request, reply) => {
      const events = eventsOf(deps);
      const found = await ownEndpoint(events, request, request.params.endpointId);
      return found ? reply.send(found) : notFound(reply);
    },
  );

  app.patch(
    '/event-endpoints/:endpointId',
    {
      schema: {
        operationId: 'updateEventEndpoint',
        summary: 'Change an endpoint: its URL, events, description, or disable / enable it',
        params: EndpointParams,
        body: EndpointUpdateRequest,
        response: {
          ...bodyAnswers,
          200: answer('The endpoint as changed', Endpoint),
          404: answer('No such endpoint', ErrorResponse),
          ...commonAnswers,
          ...unavailable,
        },
      },
      config: { scope },
    },
    async (request, reply) => {
      const events = eventsOf(deps);
      const updated = await events.endpoints.update(request.params.endpointId, seenTenant(request), request.body);
      if (!updated) return notFound(reply);
      return (await changed(request, reply, updated, 'update')) ? reply.send(updated) : reply;
    },
  );

  app.delete(
    '/event-endpoints/:endpointId',
    {
      schema: {
        operationId: 'deleteEventEndpoint',
        summary: 'Delete an endpoint and its deliveries log',
        params: EndpointParams,
        response: {
          200: answer('The endpoint deleted', Endpoint),
          400: answer('`param` names the invalid parameter, or a body field (this route takes none)', ErrorResponse),
          404: answer('No such endpoint', ErrorResponse),
          ...commonAnswers,
          ...unavailable,
        },
      },
      config: { scope },
    },
    async (request, reply) => {
      const events = eventsOf(deps);
      const deleted = await events.endpoints.delete(request.params.endpointId, seenTenant(request));
      if (!deleted) return notFound(reply);
      return (await changed(request, reply, deleted, 'delete')) ? reply.send(deleted) : reply;
    },
  );
}
