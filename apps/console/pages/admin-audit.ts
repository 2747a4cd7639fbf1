import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditFilter, AuditTrail } from '../../../src/audit/audit-trail.js';
import { administrator, needsDatabase, text, type AdminDeps } from '../admin.js';
import { audited } from '../audit.js';
import { requireCsrf } from '../csrf.js';
import { sendPage } from '../deps.js';
import type { FieldError } from '../views/admin-form.js';
import {
  auditActions,
  auditSearchForm,
  entriesTable,
  FILTER_FIELDS,
  verificationView,
  type TypedFilter,
} from '../views/admin-audit.js';
import { html } from '../views/html.js';

const FRAME = { title: 'Audit trail', section: '/admin/audit' } as const;
const PAGE_SIZE = 100;
const WHAT = 'The audit trail and its entries';

type FilterBody = TypedFilter & { before?: string };

/** A time as typed: a date, or a date and time, in UTC unless it names its zone. */
function when(field: string, value: string): Date | FieldError {
  const zoned = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value) ? `${value}Z` : value;
  const at = new Date(zoned);
  return Number.isNaN(at.getTime())
    ? { field, reason: 'expected a date or a time in UTC, e.g. 2026-11-25 or 2026-11-25T14:00' }
    : at;
}

/**
 * The trail's filter from the form, limited to the administrator's tenants: an administrator of some tenants finds
 * their tenants' entries only (not those of another tenant, nor those of none, like sign-ins).
 */
function filterOf(request: FastifyRequest, typed: TypedFilter): { filter: AuditFilter } | { error: FieldError } {
  const { tenants } = administrator(request);
  const filter: AuditFilter = {
    ...(typed.actor ? { actor: typed.actor } : {}),
    ...(typed.action ? { action: typed.action } : {}),
    ...(typed.workflowId ? { workflowId: typed.workflowId } : {}),
    ...(typed.batchId ? { batchId: typed.batchId } : {}),
    ...(typed.tenant ? { tenant: typed.tenant } : {}),
    ...(tenants ? { tenants } : {}),
  };
  for (const field of ['since', 'until'] as const) {
    const value = typed[field];
    if (!value) continue;
    const at = when(field, value);
    if (!(at instanceof Date)) return { error: at };
    filter[field] = at;
  }
  return { filter };
}

const refused = (request: FastifyRequest, reply: FastifyReply, typed: TypedFilter, error: FieldError) =>
  sendPage(request, reply, FRAME, (csrf) => auditSearchForm(csrf, typed, error), 400);

function typedOf(body: Record<string, unknown> | undefined): TypedFilter {
  const typed: TypedFilter = {};
  for (const [field] of FILTER_FIELDS) {
    const value = text(body?.[field]);
    if (value !== '') typed[field] = value;
  }
  return typed;
}

/** A search's page: newest first, a hundred at a time; reading the trail is itself an entry (`audit.read`). */
async function showEntries(
  trail: AuditTrail,
  request: FastifyRequest,
  reply: FastifyReply,
  typed: TypedFilter,
  before?: number,
) {
  const parsed = filterOf(request, typed);
  if ('error' in parsed) return refused(request, reply, typed, parsed.error);
  const found = await trail.list({
    ...parsed.filter,
    newestFirst: true,
    limit: PAGE_SIZE + 1,
    ...(before !== undefined ? { beforeSeq: before } : {}),
  });
  const entries = found.slice(0, PAGE_SIZE);
  await audited(trail, request, { action: 'audit.read', tenant: typed.tenant ?? null });
  const older = found.length > PAGE_SIZE ? entries[entries.length - 1]!.seq : undefined;
  return sendPage(
    request,
    reply,
    FRAME,
    (csrf) =>
      html`${auditSearchForm(csrf, typed)} ${auditActions(csrf, typed, older)}
        <h2>Entries</h2>
        ${entriesTable(entries)}`,
  );
}

/** The search as JSON Lines, oldest first, whatever its size; recorded (`audit.export`) before it is sent. */
async function exportEntries(trail: AuditTrail, request: FastifyRequest, reply: FastifyReply, typed: TypedFilter) {
  const parsed = filterOf(request, typed);
  if ('error' in parsed) return refused(request, reply, typed, parsed.error);
  await audited(trail, request, { action: 'audit.export', tenant: typed.tenant ?? null });
  const lines: string[] = [];
  for await (const entry of trail.each(parsed.filter)) lines.push(JSON.stringify(entry));
  return reply
    .header('content-type', 'application/x-ndjson; charset=utf-8')
    .header('content-disposition', 'attachment; filename="audit-trail.jsonl"')
    .header('cache-control', 'no-store')
    .send(lines.length > 0 ? `${lines.join('\n')}\n` : '');
}

/**
 * The audit trail for administrators (docs/operating/console.md): search (newest first, paged), verify the chain,
 * export a search as JSON Lines, with the rules of `eligibility audit` (src/audit/audit-trail.ts). Searches are posted,
 * as the console's other search is, so what is typed stays out of URLs.
 */
export function adminAuditPages(app: FastifyInstance, deps: AdminDeps): void {
  const admin = { role: 'admin' } as const;
  const read = { access: admin, owns: 'own-tenant', audit: 'audit.read' } as const;
  const exported = { access: admin, owns: 'own-tenant', audit: 'audit.export' } as const;
  const csrf = requireCsrf(app);
  app.get('/admin/audit', { config: read }, async (request, reply) => {
    if (!deps.audit) return needsDatabase(request, reply, FRAME.title, WHAT);
    return showEntries(deps.audit, request, reply, {});
  });

  app.post<{ Body: FilterBody }>('/admin/audit', { preHandler: csrf, config: read }, async (request, reply) => {
    if (!deps.audit) return needsDatabase(request, reply, FRAME.title, WHAT);
    const before = Number(text(request.body?.before));
    return showEntries(
      deps.audit,
      request,
      reply,
      typedOf(request.body),
      Number.isInteger(before) && before > 0 ? before : undefined,
    );
  });

  app.get('/admin/audit.jsonl', { config: exported }, async (request, reply) => {
    if (!deps.audit) return needsDatabase(request, reply, FRAME.title, WHAT);
    return exportEntries(deps.audit, request, reply, {});
  });

  app.post<{ Body: FilterBody }>(
    '/admin/audit.jsonl',
    { preHandler: csrf, config: exported },
    async (request, reply) => {
      if (!deps.audit) return needsDatabase(request, reply, FRAME.title, WHAT);
      return exportEntries(deps.audit, request, reply, typedOf(request.body));
    },
  );

  const verify = { access: admin, owns: 'none', audit: 'audit.verify' } as const;
  app.post('/admin/audit/verify', { preHandler: csrf, config: verify }, async (request, reply) => {
    if (!deps.audit) return needsDatabase(request, reply, FRAME.title, WHAT);
    const result = await deps.audit.verify();
    await audited(deps.audit, request, {
      outcome: result.ok ? 'ok' : `broken at ${result.brokenAt}`,
    });
    return sendPage(request, reply, { ...FRAME, title: 'Audit trail: verification' }, () => verificationView(result));
  });
}
