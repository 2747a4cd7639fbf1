import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointView } from '../../../src/events/endpoints.js';
import { createEndpoint, redeliver } from '../../../src/events/endpoint-changes.js';
import { EndpointRefused, endpointSpec, ROTATION_GRACE, tenantToCreate } from '../../../src/events/endpoint-rules.js';
import type { EventServices } from '../../../src/events/services.js';
import { text, values } from '../admin.js';
import { audit } from '../audit.js';
import { requireCsrf } from '../csrf.js';
import { sendPage, withDeadline } from '../deps.js';
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
  visibleEndpoint,
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
 * What administrators change of their tenants' endpoints (registered behind `adminOnly`: anyone else gets the plain
 * 404): add one (its secret shown once), disable and enable, rotate the secret and delete after a confirmation page,
 * redeliver what failed since a time. The rules are src/events/'s, as for the intake API and the CLI; each change is an
 * audit entry with its tenant and is told to the tenant's dispatcher.
 */
export function eventEndpointActionPages(app: FastifyInstance, deps: EndpointPageDeps): void {
  const tell = (events: EventServices, tenant: string) => withDeadline(deps, () => events.dispatchers.refresh(tenant));
  const audited = (request: FastifyRequest, endpoint: EndpointView, verb: string) =>
    audit(deps.audit, request, {
      action: `event-endpoint.${verb}:${endpoint.id}`,
      tenant: endpoint.tenant,
      outcome: 'ok',
    });

  /** Runs an action on an endpoint the administrator sees; another tenant's, or none, is the page's 404. */
  const onEndpoint =
    (
      act: (
        events: EventServices,
        endpoint: EndpointView,
        request: FastifyRequest & { body: FormBody },
        reply: FastifyReply,
      ) => Promise<FastifyReply>,
    ) =>
    async (request: FastifyRequest<Params & { Body: FormBody }>, reply: FastifyReply) => {
      const { events } = deps;
      if (!events) return eventsNeedDatabase(request, reply);
      const endpoint = await visibleEndpoint(events, request, request.params.id);
      if (!endpoint) return noEndpoint(request, reply);
      return act(events, endpoint, request, reply);
    };
  const csrf = { preHandler: requireCsrf(app) };

  app.get('/event-endpoints/new', (request, reply) =>
    deps.events ? showForm(request, reply) : eventsNeedDatabase(request, reply),
  );

  app.post<{ Body: FormBody }>('/event-endpoints', csrf, async (request, reply) => {
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
      created = await createEndpoint(events, { ...spec, tenant }, (fn) => withDeadline(deps, fn));
    } catch (err) {
      if (err instanceof EndpointRefused) return showForm(request, reply, form, fieldError(err));
      throw err;
    }
    await audited(request, created.endpoint, 'create');
    request.log.info({ endpointId: created.endpoint.id }, 'event endpoint created');
    return sendPage(request, reply, { ...ENDPOINTS_FRAME, title: 'Endpoint added' }, () =>
      secretView(created.endpoint, created.secret, false),
    );
  });

  for (const act of ['disable', 'enable'] as const) {
    app.post<Params & { Body: FormBody }>(
      `/event-endpoints/:id/${act}`,
      csrf,
      onEndpoint(async (events, endpoint, request, reply) => {
        const changed = await events.endpoints.update(endpoint.id, endpoint.tenant, { disabled: act === 'disable' });
        if (!changed) return noEndpoint(request, reply);
        await audited(request, changed, act);
        await tell(events, changed.tenant);
        request.session.notice =
          act === 'disable'
            ? `Endpoint ${changed.url} disabled: no event is delivered to it until it is enabled.`
            : `Endpoint ${changed.url} enabled: new events are delivered to it. Redeliver what it missed below.`;
        return reply.redirect(endpointPath(changed), 303);
      }),
    );
  }

  for (const act of ['rotate', 'delete'] as const) {
    app.get<Params & { Body: FormBody }>(
      `/event-endpoints/:id/${act}`,
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
    csrf,
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
      // Its dispatcher holds ids and event types only (each attempt reads the secrets), so a rotation is not told:
      // the new secret is shown whatever Temporal's state, as the intake API answers it.
      await audited(request, rotated.endpoint, 'rotate');
      request.log.info({ endpointId: endpoint.id }, 'event endpoint secret rotated');
      return sendPage(request, reply, { ...ENDPOINTS_FRAME, title: 'Secret rotated' }, () =>
        secretView(rotated.endpoint, rotated.secret, true),
      );
    }),
  );

  app.post<Params & { Body: FormBody }>(
    '/event-endpoints/:id/delete',
    csrf,
    onEndpoint(async (events, endpoint, request, reply) => {
      if (text(request.body?.confirm) !== 'yes') return reply.redirect(`${endpointPath(endpoint)}/delete`, 303);
      const deleted = await events.endpoints.delete(endpoint.id, endpoint.tenant);
      if (!deleted) return noEndpoint(request, reply);
      await audited(request, deleted, 'delete');
      await tell(events, deleted.tenant);
      request.session.notice = `Endpoint ${deleted.url} (${deleted.id}) deleted with its deliveries log.`;
      return reply.redirect('/event-endpoints', 303);
    }),
  );

  app.post<Params & { Body: FormBody }>(
    '/event-endpoints/:id/redeliver',
    csrf,
    onEndpoint(async (events, endpoint, request, reply) => {
      const since = pastTime(text(request.body?.failedSince));
      if (!since) {
        const error = { field: 'failedSince', reason: 'expected a date and time in the past (UTC)' };
        return showEndpoint(events, request, reply, endpoint, error, 400);
      }
      let queued;
      try {
        queued = await redeliver(events, endpoint, { failedSince: since }, (fn) => withDeadline(deps, fn));
      } catch (err) {
        if (err instanceof EndpointRefused) return showEndpoint(events, request, reply, endpoint, fieldError(err), 409);
        throw err;
      }
      await audited(request, endpoint, 'redeliver');
      request.session.notice = `${queued} event(s) queued again for ${endpoint.url}.`;
      return reply.redirect(endpointPath(endpoint), 303);
    }),
  );
}
