import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointView } from '../../../src/events/endpoints.js';
import type { EventServices } from '../../../src/events/services.js';
import { needsDatabase } from '../admin.js';
import { sendPage, type ConsoleDeps } from '../deps.js';
import { ownedEndpoint } from '../../../src/access/owned-object.js';
import { operatorOf } from '../session.js';
import type { FieldError } from '../views/admin-form.js';
import {
  deliveriesTable,
  disabledNotice,
  endpointActions,
  endpointFacts,
  endpointsTable,
} from '../views/event-endpoints.js';
import { html } from '../views/html.js';
import { notFoundPage } from './not-found.js';

/** The console's dependencies and the event services (absent without the project's database). */
export type EndpointPageDeps = ConsoleDeps & { events?: EventServices };

export const ENDPOINTS_FRAME = { title: 'Event endpoints', section: '/event-endpoints' } as const;
/** Attempts shown on an endpoint's page; the intake API and the CLI page on through older ones. */
const DELIVERIES_SHOWN = 50;

export const eventsNeedDatabase = (request: FastifyRequest, reply: FastifyReply) =>
  needsDatabase(request, reply, ENDPOINTS_FRAME.title, 'Event endpoints');

export const noEndpoint = (request: FastifyRequest, reply: FastifyReply) =>
  notFoundPage(request, reply, 'There is no event endpoint with this id.');

/** An endpoint's page: what it is, why it stopped, its last attempts, and for administrators what they may change. */
export async function showEndpoint(
  events: EventServices,
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: EndpointView,
  redeliverError?: FieldError,
  status = 200,
) {
  const { deliveries } = await events.log.deliveries(endpoint.id, { limit: DELIVERIES_SHOWN });
  const admin = operatorOf(request).role === 'admin';
  return sendPage(
    request,
    reply,
    { ...ENDPOINTS_FRAME, title: `Event endpoint ${endpoint.id}` },
    (csrf) =>
      html`${endpointFacts(endpoint)} ${admin ? endpointActions(csrf, endpoint, redeliverError) : ''}
        <h2>Deliveries</h2>
        ${deliveriesTable(deliveries, DELIVERIES_SHOWN)}
        <p><a href="/event-endpoints">Back to the endpoints</a></p>`,
    status,
  );
}

/**
 * Tenants' event endpoints (docs/integrating/events.md) for every signed-in role: the list of the operator's tenants'
 * endpoints, with a disabled one's reason at the top, and each endpoint's last delivery attempts. Changes are the
 * administrators' (`event-endpoint-actions.ts`).
 */
export function eventEndpointPages(app: FastifyInstance, deps: EndpointPageDeps): void {
  const list = {
    access: { role: 'viewer' },
    owns: 'own-tenant',
    audit: { none: 'addresses and delivery states of the operator’s tenants’ endpoints, no patient data' },
  } as const;
  app.get('/event-endpoints', { config: list }, async (request, reply) => {
    const { events } = deps;
    if (!events) return eventsNeedDatabase(request, reply);
    const operator = operatorOf(request);
    const endpoints = await events.endpoints.list(operator.tenants);
    return sendPage(
      request,
      reply,
      ENDPOINTS_FRAME,
      () =>
        html`${disabledNotice(endpoints)}
          <p>
            Where each tenant's events are delivered, signed (<a href="https://www.standardwebhooks.com/"
              >Standard Webhooks</a
            >) and retried for up to the retry window.
            ${operator.role === 'admin' ? html`<a class="button" href="/event-endpoints/new">Add an endpoint</a>` : ''}
          </p>
          ${endpointsTable(endpoints)}`,
    );
  });

  // The wall found the endpoint within the operator's tenants (and said when there is no database).
  const page = {
    access: { role: 'viewer' },
    owns: 'endpoint',
    audit: { none: 'an address, its delivery attempts and states, no patient data' },
  } as const;
  app.get<{ Params: { id: string } }>('/event-endpoints/:id', { config: page }, async (request, reply) =>
    showEndpoint(deps.events!, request, reply, ownedEndpoint(request)),
  );
}
