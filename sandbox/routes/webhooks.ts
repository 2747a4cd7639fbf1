import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  EventSubscriptionRequest,
  SANDBOX_EVENT_NAMES,
  WebhookCreateRequest,
  type WebhookEndpoint,
} from '../../src/contract/index.js';
import type { SandboxContext } from '../context.js';
import { invalidRequest, notFound, parse } from '../replies.js';

const KNOWN_EVENTS: readonly string[] = SANDBOX_EVENT_NAMES;

/**
 * `POST /v1/webhooks` registers an endpoint (201, no events; every call registers a new endpoint, even for a url
 * already registered) and `POST /v1/webhooks/{endpointId}/events` subscribes it (201; subscribing twice changes
 * nothing).
 */
export function webhookRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/v1/webhooks', (request, reply) => {
    const body = parse(WebhookCreateRequest, request.body);
    if (!body.ok) return invalidRequest(reply, body.param);
    const endpoint: WebhookEndpoint = {
      url: body.data.url,
      endpointId: `ep_${randomBytes(12).toString('hex')}`,
      events: [],
    };
    ctx.state.webhookEndpoints.set(endpoint.endpointId, endpoint);
    return reply.code(201).send(endpoint);
  });

  app.post<{ Params: { endpointId: string } }>('/v1/webhooks/:endpointId/events', (request, reply) => {
    const endpoint = ctx.state.webhookEndpoints.get(request.params.endpointId);
    if (!endpoint) return notFound(reply);
    const body = parse(EventSubscriptionRequest, request.body);
    if (!body.ok) return invalidRequest(reply, body.param);
    if (!KNOWN_EVENTS.includes(body.data.event)) return invalidRequest(reply, 'event');
    if (!endpoint.events.includes(body.data.event)) endpoint.events.push(body.data.event);
    return reply.code(201).send(endpoint);
  });
}
