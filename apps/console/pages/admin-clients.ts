import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AdminError } from '../../../src/access/administrator.js';
import type { ClientAdmin } from '../../../src/access/client-admin.js';
import { administrator, needsDatabase, text, values, type AdminDeps } from '../admin.js';
import { requireCsrf } from '../csrf.js';
import { sendPage } from '../deps.js';
import {
  clientsTable,
  confirmClientView,
  createClientForm,
  EMPTY_CLIENT_FORM,
  issuedKeyView,
  type ClientForm,
} from '../views/admin-clients.js';
import type { FieldError } from '../views/admin-form.js';
import { html } from '../views/html.js';
import { notFoundPage } from './not-found.js';

const FRAME = { title: 'Intake clients', section: '/admin/clients' } as const;
/** A client's public id (src/access/api-keys.ts); anything else in the path is no client's. */
const CLIENT_ID = /^[0-9a-f]{12}$/;

type ClientBody = { name?: unknown; tenant?: unknown; allTenants?: unknown; scopes?: unknown };
type Act = 'rotate' | 'revoke';

async function showClients(
  admin: ClientAdmin,
  request: FastifyRequest,
  reply: FastifyReply,
  form: ClientForm = EMPTY_CLIENT_FORM,
  error?: FieldError,
) {
  const who = administrator(request);
  const clients = await admin.list(who);
  return sendPage(
    request,
    reply,
    FRAME,
    (csrf) =>
      html`${createClientForm(csrf, who.tenants, form, error)}
        <h2>Clients</h2>
        ${clientsTable(clients)}`,
    error ? 400 : 200,
  );
}

/**
 * Intake clients for administrators (docs/operating/console.md): the list (never a key or its hash), making one,
 * rotating and revoking, each after a confirmation page. The rules and the audit entries are
 * src/access/client-admin.ts's, as for `eligibility clients`. A key is shown once, on the page that answers the post
 * that made it, and is never logged.
 */
export function adminClientPages(app: FastifyInstance, deps: AdminDeps): void {
  const admin = { role: 'admin' } as const;
  // Clients are of the administrator's tenants (ClientAdmin's rule); it writes each change's entry itself.
  const list = {
    access: admin,
    owns: 'own-tenant',
    audit: { none: 'names, tenants and scopes; never a key' },
  } as const;
  const changes = (audit: string) => ({
    preHandler: requireCsrf(app),
    config: { access: admin, owns: 'own-tenant', audit },
  });
  app.get('/admin/clients', { config: list }, async (request, reply) => {
    if (!deps.clients) return needsDatabase(request, reply, FRAME.title, 'Intake clients');
    return showClients(deps.clients, request, reply);
  });

  app.post<{ Body: ClientBody }>('/admin/clients', changes('client.create'), async (request, reply) => {
    if (!deps.clients) return needsDatabase(request, reply, FRAME.title, 'Intake clients');
    const body = request.body ?? {};
    const form: ClientForm = {
      name: text(body.name),
      tenant: text(body.tenant),
      allTenants: text(body.allTenants) === 'yes',
      scopes: values(body.scopes),
    };
    try {
      const made = await deps.clients.create(administrator(request), {
        name: form.name,
        ...(form.tenant ? { tenant: form.tenant } : {}),
        allTenants: form.allTenants,
        scopes: form.scopes,
      });
      request.log.info({ client: made.id }, 'intake client made');
      return sendPage(request, reply, { ...FRAME, title: 'Client made' }, () =>
        issuedKeyView({ id: made.id, name: form.name }, made.key, false),
      );
    } catch (err) {
      if (err instanceof AdminError) return showClients(deps.clients, request, reply, form, err);
      throw err;
    }
  });

  for (const act of ['rotate', 'revoke'] as const) {
    const confirm = { access: admin, owns: 'own-tenant', audit: { none: 'a confirmation page' } } as const;
    app.get<{ Params: { id: string } }>(`/admin/clients/:id/${act}`, { config: confirm }, async (request, reply) => {
      if (!deps.clients) return needsDatabase(request, reply, FRAME.title, 'Intake clients');
      const client = await found(deps.clients, request, request.params.id);
      if (!client) return noClient(request, reply);
      return sendPage(request, reply, { ...FRAME, title: `${title(act)} ${client.name}` }, (csrf) =>
        confirmClientView(csrf, client, act),
      );
    });

    app.post<{ Params: { id: string }; Body: { confirm?: unknown } }>(
      `/admin/clients/:id/${act}`,
      changes(`client.${act}`),
      async (request, reply) => {
        if (!deps.clients) return needsDatabase(request, reply, FRAME.title, 'Intake clients');
        const { id } = request.params;
        const client = await found(deps.clients, request, id);
        if (!client) return noClient(request, reply);
        // Only the confirmation page's form does it; any other post is taken to that page first.
        if (text(request.body?.confirm) !== 'yes') {
          return reply.redirect(`/admin/clients/${encodeURIComponent(id)}/${act}`, 303);
        }
        try {
          if (act === 'revoke') {
            await deps.clients.revoke(administrator(request), id);
            request.log.info({ client: id }, 'intake client revoked');
            request.session.notice = `Client ${client.name} (${id}) revoked: its key is refused from now on.`;
            return reply.redirect('/admin/clients', 303);
          }
          const issued = await deps.clients.rotate(administrator(request), id);
          request.log.info({ client: id }, 'intake client rotated');
          return sendPage(request, reply, { ...FRAME, title: 'Key rotated' }, () =>
            issuedKeyView(client, issued.key, true),
          );
        } catch (err) {
          if (err instanceof AdminError && err.kind === 'not-found') return noClient(request, reply);
          throw err;
        }
      },
    );
  }
}

const title = (act: Act) => (act === 'rotate' ? 'Rotate' : 'Revoke');

/** The active client of that id, when it is the administrator's; another tenant's is not found, like a missing one. */
async function found(admin: ClientAdmin, request: FastifyRequest, id: string) {
  if (!CLIENT_ID.test(id)) return undefined;
  return admin.find(administrator(request), id).catch((err: unknown) => {
    if (err instanceof AdminError) return undefined;
    throw err;
  });
}

const noClient = (request: FastifyRequest, reply: FastifyReply) =>
  notFoundPage(request, reply, 'There is no active intake client with this id.');
