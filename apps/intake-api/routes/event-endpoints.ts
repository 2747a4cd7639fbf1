import type { FastifyRequest } from 'fastify';
import { endpointChanged } from '../../../src/events/endpoint-changes.js';
import { tenantToCreate } from '../../../src/events/endpoint-rules.js';
import type { EndpointView } from '../../../src/events/endpoints.js';
import { audited } from '../audit.js';
import type { IntakeApp, IntakeDeps } from '../deps.js';
import { eventsOf } from '../event-access.js';
import { notFound } from '../errors.js';
import { ownedEndpoint } from '../../../src/access/owned-object.js';
import { scopeOf } from '../owned.js';
import {
  Endpoint,
  EndpointCreateRequest,
  EndpointList,
  EndpointParams,
  EndpointUpdateRequest,
  EndpointWithSecret,
} from '../event-schemas.js';
import { keysetPager } from '../../../src/pages.js';
import { answer, bodyAnswers, commonAnswers, TAGS } from '../openapi.js';
import { PageQuery } from '../pagination.js';
import { ErrorResponse } from '../schemas.js';

const access = { scope: 'events:manage' } as const;
const unavailable = { 503: answer('The database is unavailable', ErrorResponse) };

/**
 * `POST|GET /event-endpoints`, `GET|PATCH|DELETE /event-endpoints/:endpointId` (docs/integrating/events.md): a tenant's
 * endpoints, each change audited before the answer. Another tenant's endpoint is a 404.
 */
export function eventEndpointRoutes(app: IntakeApp, deps: IntakeDeps): void {
  /** A change made: audited, and what was queued for an endpoint now disabled set aside as undelivered. */
  const changed = async (request: FastifyRequest, endpoint: EndpointView, verb: string) => {
    await audited(deps.access, request, { action: `event-endpoint.${verb}:${endpoint.id}`, tenant: endpoint.tenant });
    await endpointChanged(eventsOf(deps), endpoint);
  };

  app.post(
    '/event-endpoints',
    {
      schema: {
        operationId: 'createEventEndpoint',
        tags: [TAGS.eventEndpoints.name],
        summary: 'Subscribe an endpoint to events; its signing secret is answered this once',
        body: EndpointCreateRequest,
        response: {
          ...bodyAnswers,
          201: answer('The endpoint and its secret', EndpointWithSecret),
          ...commonAnswers,
          ...unavailable,
        },
      },
      // The entry names the endpoint: `event-endpoint.create:<id>`.
      config: { access, owns: 'own-tenant', audit: 'event-endpoint.create' },
    },
    async (request, reply) => {
      const events = eventsOf(deps);
      const { tenant: named, ...spec } = request.body;
      const tenant = tenantToCreate(scopeOf(request), named);
      const created = await events.endpoints.create({ ...spec, tenant });
      await audited(deps.access, request, { action: `event-endpoint.create:${created.endpoint.id}`, tenant });
      request.log.info({ endpointId: created.endpoint.id }, 'event endpoint created');
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/event-endpoints',
    {
      schema: {
        operationId: 'listEventEndpoints',
        tags: [TAGS.eventEndpoints.name],
        summary: "The caller's tenant's endpoints, oldest first, with their status and why a disabled one stopped",
        querystring: PageQuery,
        response: {
          200: answer('A page of endpoints', EndpointList),
          400: answer('`param` names the invalid query parameter (an unknown one too)', ErrorResponse),
          ...commonAnswers,
          ...unavailable,
        },
      },
      config: { access, owns: 'own-tenant', audit: { none: 'addresses and delivery states, no patient data' } },
    },
    async (request, reply) => {
      // A tenant's endpoints are few: read whole, and paged by the store's order (created, then id).
      const paged = keysetPager<EndpointView>('event-endpoints', request.query, (e) => [e.createdAt, e.id], 'asc');
      const { items, ...next } = paged(await eventsOf(deps).endpoints.list(scopeOf(request)));
      return reply.send({ endpoints: items, ...next });
    },
  );

  app.get(
    '/event-endpoints/:endpointId',
    {
      schema: {
        operationId: 'getEventEndpoint',
        tags: [TAGS.eventEndpoints.name],
        summary: 'One endpoint',
        params: EndpointParams,
        response: {
          200: answer('The endpoint', Endpoint),
          400: answer('`param` names the invalid parameter', ErrorResponse),
          404: answer('No such endpoint', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access, owns: 'endpoint', audit: { none: 'an address and its delivery state, no patient data' } },
    },
    async (request, reply) => reply.send(ownedEndpoint(request)),
  );

  app.patch(
    '/event-endpoints/:endpointId',
    {
      schema: {
        operationId: 'updateEventEndpoint',
        tags: [TAGS.eventEndpoints.name],
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
      config: { access, owns: 'endpoint', audit: 'event-endpoint.update' },
    },
    async (request, reply) => {
      const { id, tenant } = ownedEndpoint(request);
      const updated = await eventsOf(deps).endpoints.update(id, tenant, request.body);
      if (!updated) throw notFound('no such event endpoint');
      await changed(request, updated, 'update');
      return reply.send(updated);
    },
  );

  app.delete(
    '/event-endpoints/:endpointId',
    {
      schema: {
        operationId: 'deleteEventEndpoint',
        tags: [TAGS.eventEndpoints.name],
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
      config: { access, owns: 'endpoint', audit: 'event-endpoint.delete' },
    },
    async (request, reply) => {
      const { id, tenant } = ownedEndpoint(request);
      const deleted = await eventsOf(deps).endpoints.delete(id, tenant);
      if (!deleted) throw notFound('no such event endpoint');
      await changed(request, deleted, 'delete');
      return reply.send(deleted);
    },
  );
}
