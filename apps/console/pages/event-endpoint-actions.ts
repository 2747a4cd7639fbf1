import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointView } from '../../../src/events/endpoints.js';
import { endpointChanged, redeliver } from '../../../src/events/endpoint-changes.js';
import { EndpointRefused, endpointSpec, ROTATION_GRACE, tenantToCreate } from '../../../src/events/endpoint-rules.js';
import type { EventServices } from '../../../src/events/services.js';
import { text, values } from '../admin.js';
import { audited } from '../audit.js';
import { requireCsrf } from '../csrf.js';
import { sendPage } from '../deps.js';
import { ownedEndpoint } from '../../../src/access/owned-object.js';
import { operatorOf } from '../session.js';
import type { FieldError } from '../views/admin-form.js';
import {
  confirmEndpointView,
  createEndpointForm,
  EMPTY_ENDPOINT_FORM,
  secretView,
  type EndpointForm,
} from '../views/event-endpoint-forms.js';
import { endpointPath } from '../views/event-endpoints.js';
import {
  ENDPOINTS_FRAME,
  eventsNeedDatabase,
  noEndpoint,
  showEndpoint,
  type EndpointPageDeps,
} from './event-endpoints.js';

type Params = { Params: { id: string } };
type FormBody = Record<string, unknown> | undefined;

const fieldError = (err: EndpointRefused): FieldError => ({ field: err.field, reason: err.reason });

function showForm(request: FastifyRequest, reply: FastifyReply, form = EMPTY_ENDPOINT_FORM, error?: FieldError) {
  const tenants = operatorOf(request).tenants;
  return sendPage(
    request,
    reply,
    { ...ENDPOINTS_FRAME, title: 'Add an event endpoint' },
    (csrf) => createEndpointForm(csrf, tenants, form, error),
    error ? 400 : 200,
  );
}

/** A `datetime-local` value (UTC, as the console shows times) or an ISO time with its zone; undefined otherwise. */
function pastTime(value: string): Date | undefined {
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value) ? `${value}Z` : value;
  const at = /^\d{4}-\d{2}-\d{2}T/.test(iso) ? new Date(iso) : undefined;
  return at && !Number.isNaN(at.getTime()) && at.getTime() <= Date.now() ? at : undefined;
}

/**
 * What administrators change of their tenants' endpoints (each route declares `role: 'admin'`: anyone else gets the
 * plain 404): add one (its secret shown once), disable and enable, rotate the secret and delete after a confirmation page,
 * redeliver what failed since a time. The rules are src/events/'s, as for the intake API and the CLI; each change is an
 * audit entry with its tenant.
 */
export function eventEndpointActionPages(app: FastifyInstance, deps: EndpointPageDeps): void {
  /** The entry of a change names the endpoint: `event-endpoint.<verb>:<id>`, with its tenant. */
  const recorded = (request: FastifyRequest, endpoint: EndpointView, verb: string) =>
    audited(deps.audit, request, { action: `event-endpoint.${verb}:${endpoint.id}`, tenant: endpoint.tenant });

  /**
   * Runs an action on the endpoint the route's path names: the wall found it within the administrator's tenants (a
   * missing one, or another tenant's, got the page's 404) and said so when there is no database.
   */
  const onEndpoint =
    (
      act: (
        events: EventServices,
        endpoint: EndpointView,
        request: FastifyRequest & { body: FormBody },
        reply: FastifyReply,
      ) => Promise<FastifyReply>,
    ) =>
    async (request: FastifyRequest<Params & { Body: FormBody }>, reply: FastifyReply) =>
      act(deps.events!, ownedEndpoint(request), request, reply);
  const admin = { role: 'admin' } as const;
  const change = (verb: string) => ({
    preHandler: requireCsrf(app),
    config: { access: admin, owns: 'endpoint', audit: `event-endpoint.${verb}` },
  });

  const form = { access: admin, owns: 'none', audit: { none: 'an empty form' } } as const;
  app.get('/event-endpoints/new', { config: form }, (request, reply) =>
    deps.events ? showForm(request, reply) : eventsNeedDatabase(request, reply),
  );

  const create = { access: admin, owns: 'own-tenant', audit: 'event-endpoint.create' } as const;
  app.post<{ Body: FormBody }>(
    '/event-endpoints',
    { preHandler: requireCsrf(app), config: create },
    async (request, reply) => {
      const { events } = deps;
      if (!events) return eventsNeedDatabase(request, reply);
      const body = request.body ?? {};
      const form: EndpointForm = {
        url: text(body.url),
        events: values(body.events),
        description: text(body.description),
        tenant: text(body.tenant),
      };
      let created;
      try {
        const { url, events: types, description } = form;
        const spec = endpointSpec({ url, events: types, ...(description ? { description } : {}) });
        const tenant = tenantToCreate(operatorOf(request).tenants, form.tenant || undefined);
        created = await events.endpoints.create({ ...spec, tenant });
      } catch (err) {
        if (err instanceof EndpointRefused) return showForm(request, reply, form, fieldError(err));
        throw err;
      }
      await recorded(request, created.endpoint, 'create');
      request.log.info({ endpointId: created.endpoint.id }, 'event endpoint created');
      return sendPage(request, reply, { ...ENDPOINTS_FRAME, title: 'Endpoint added' }, () =>
        secretView(created.endpoint, created.secret, false),
      );
    },
  );

  for (const act of ['disable', 'enable'] as const) {
    app.post<Params & { Body: FormBody }>(
      `/event-endpoints/:id/${act}`,
      change(act),
      onEndpoint(async (events, endpoint, request, reply) => {
        const changed = await events.endpoints.update(endpoint.id, endpoint.tenant, { disabled: act === 'disable' });
        if (!changed) return noEndpoint(request, reply);
        await recorded(request, changed, act);
        await endpointChanged(events, changed);
        request.session.notice =
          act === 'disable'
            ? `Endpoint ${changed.url} disabled: no event is delivered to it until it is enabled.`
            : `Endpoint ${changed.url} enabled: new events are delivered to it. Redeliver what it missed below.`;
        return reply.redirect(endpointPath(changed), 303);
      }),
    );
  }

  for (const act of ['rotate', 'delete'] as const) {
    const confirm = { access: admin, owns: 'endpoint', audit: { none: 'a confirmation page' } } as const;
    app.get<Params & { Body: FormBody }>(
      `/event-endpoints/:id/${act}`,
      { config: confirm },
      onEndpoint(async (_events, endpoint, request, reply) =>
        sendPage(
          request,
          reply,
          { ...ENDPOINTS_FRAME, title: `${act === 'rotate' ? 'Rotate the secret of' : 'Delete'} ${endpoint.id}` },
          (token) => confirmEndpointView(token, endpoint, act),
        ),
      ),
    );
  }

  app.post<Params & { Body: FormBody }>(
    '/event-endpoints/:id/rotate',
    change('rotate'),
    onEndpoint(async (events, endpoint, request, reply) => {
      // Only the confirmation page's form does it; any other post is taken to that page first.
      if (text(request.body?.confirm) !== 'yes') return reply.redirect(`${endpointPath(endpoint)}/rotate`, 303);
      const hours = Number(text(request.body?.graceHours) || ROTATION_GRACE.defaultSeconds / 3600);
      if (!Number.isFinite(hours) || hours < 0 || hours * 3600 > ROTATION_GRACE.maxSeconds) {
        const error = { field: 'graceHours', reason: `0 to ${ROTATION_GRACE.maxSeconds / 3600} hours` };
        return sendPage(
          request,
          reply,
          { ...ENDPOINTS_FRAME, title: `Rotate the secret of ${endpoint.id}` },
          (token) => confirmEndpointView(token, endpoint, 'rotate', error),
          400,
        );
      }
      const rotated = await events.endpoints.rotate(endpoint.id, endpoint.tenant, Math.round(hours * 3600));
      if (!rotated) return noEndpoint(request, reply);
      await recorded(request, rotated.endpoint, 'rotate');
      request.log.info({ endpointId: endpoint.id }, 'event endpoint secret rotated');
      return sendPage(request, reply, { ...ENDPOINTS_FRAME, title: 'Secret rotated' }, () =>
        secretView(rotated.endpoint, rotated.secret, true),
      );
    }),
  );

  app.post<Params & { Body: FormBody }>(
    '/event-endpoints/:id/delete',
    change('delete'),
    onEndpoint(async (events, endpoint, request, reply) => {
      if (text(request.body?.confirm) !== 'yes') return reply.redirect(`${endpointPath(endpoint)}/delete`, 303);
      const deleted = await events.endpoints.delete(endpoint.id, endpoint.tenant);
      if (!deleted) return noEndpoint(request, reply);
      await recorded(request, deleted, 'delete');
      request.session.notice = `Endpoint ${deleted.url} (${deleted.id}) deleted with its deliveries log.`;
      return reply.redirect('/event-endpoints', 303);
    }),
  );

  app.post<Params & { Body: FormBody }>(
    '/event-endpoints/:id/redeliver',
    change('redeliver'),
    onEndpoint(async (events, endpoint, request, reply) => {
      const since = pastTime(text(request.body?.failedSince));
      if (!since) {
        const error = { field: 'failedSince', reason: 'expected a date and time in the past (UTC)' };
        return showEndpoint(events, request, reply, endpoint, error, 400);
      }
      let queued;
      try {
        queued = await redeliver(events, endpoint, { failedSince: since });
      } catch (err) {
        if (err instanceof EndpointRefused) return showEndpoint(events, request, reply, endpoint, fieldError(err), 409);
        throw err;
      }
      await recorded(request, endpoint, 'redeliver');
      request.session.notice = `${queued} event(s) queued again for ${endpoint.url}.`;
      return reply.redirect(endpointPath(endpoint), 303);
    }),
  );
}
