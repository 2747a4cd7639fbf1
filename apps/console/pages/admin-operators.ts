import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AdminError, tenantChoice } from '../../../src/access/administrator.js';
import type { OperatorAdmin } from '../../../src/access/operator-admin.js';
import { OPERATOR_ROLES, type OperatorRole } from '../../../src/access/operators.js';
import { administrator, needsDatabase, text, values, type AdminDeps } from '../admin.js';
import { requireCsrf } from '../csrf.js';
import { sendPage } from '../deps.js';
import { tenantsText } from '../views/admin-form.js';
import {
  createOperatorForm,
  EMPTY_OPERATOR_FORM,
  operatorView,
  operatorsTable,
  type OperatorForm,
} from '../views/admin-operators.js';
import { html } from '../views/html.js';
import { notFoundPage } from './not-found.js';

const FRAME = { title: 'Operators', section: '/admin/operators' } as const;

interface OperatorBody {
  name?: unknown;
  role?: unknown;
  tenants?: unknown;
  allTenants?: unknown;
  password?: unknown;
  passwordAgain?: unknown;
}

/** The role, tenants and new password a form sent, checked by src/access's rules; refusals name the field. */
function parseForm(body: OperatorBody, passwordRequired: boolean) {
  const role = text(body.role);
  if (!(OPERATOR_ROLES as readonly string[]).includes(role)) {
    throw new AdminError('role', `choose one of ${OPERATOR_ROLES.join(', ')}`);
  }
  // Checkboxes send one value each; the text field, a comma-separated list.
  const named = values(body.tenants).flatMap((v) => v.split(',').map((t) => t.trim()));
  const tenants = tenantChoice(
    { tenants: named, ...(text(body.allTenants) === 'yes' ? { all: true } : {}) },
    { field: 'tenants', required: true },
  )!;
  const password = values(body.password)[0] ?? '';
  if (password !== (values(body.passwordAgain)[0] ?? '')) {
    throw new AdminError('passwordAgain', 'the two passwords differ; type the same one twice');
  }
  if (passwordRequired && password === '') throw new AdminError('password', 'type a password');
  return { role: role as OperatorRole, tenants, ...(password ? { password } : {}) };
}

/** What the form held, to show again beside a refusal (never the passwords). */
const typed = (body: OperatorBody, fallback: OperatorForm): OperatorForm => {
  const role = text(body.role);
  const all = text(body.allTenants) === 'yes';
  return {
    name: text(body.name),
    role: (OPERATOR_ROLES as readonly string[]).includes(role) ? (role as OperatorRole) : fallback.role,
    tenants: all ? null : values(body.tenants).flatMap((v) => v.split(',').map((t) => t.trim())),
  };
};

async function showOperators(
  admin: OperatorAdmin,
  request: FastifyRequest,
  reply: FastifyReply,
  form: OperatorForm = EMPTY_OPERATOR_FORM,
  error?: AdminError,
) {
  const who = administrator(request);
  const operators = await admin.list(who);
  return sendPage(
    request,
    reply,
    FRAME,
    (csrf) =>
      html`${createOperatorForm(csrf, who.tenants, form, error)}
        <h2>Operators</h2>
        <p class="help">
          Operators of CONSOLE_OPERATORS are not listed: each is an administrator of every tenant, set in the console's
          environment.
        </p>
        ${operatorsTable(operators)}`,
    error ? 400 : 200,
  );
}

/**
 * Operators for administrators (docs/operating/console.md): the directory's operators, adding one (password typed
 * twice), changing a role, tenants or password, disabling. The rules and the audit entries are
 * src/access/operator-admin.ts's, as for `eligibility operators`; an administrator of some tenants sees and gives only
 * theirs.
 */
export function adminOperatorPages(app: FastifyInstance, deps: AdminDeps): void {
  const admin = { role: 'admin' } as const;
  // Operators are of the administrator's tenants (OperatorAdmin's rule); it writes each change's entry itself.
  const list = {
    access: admin,
    owns: 'own-tenant',
    audit: { none: 'names, roles and tenants; never a password' },
  } as const;
  const changes = (audit: string) => ({
    preHandler: requireCsrf(app),
    config: { access: admin, owns: 'own-tenant', audit },
  });
  app.get('/admin/operators', { config: list }, async (request, reply) => {
    if (!deps.operators) return needsDatabase(request, reply, FRAME.title, 'Operators with roles');
    return showOperators(deps.operators, request, reply);
  });

  app.post<{ Body: OperatorBody }>('/admin/operators', changes('operator.create'), async (request, reply) => {
    if (!deps.operators) return needsDatabase(request, reply, FRAME.title, 'Operators with roles');
    const body = request.body ?? {};
    const form = typed(body, EMPTY_OPERATOR_FORM);
    try {
      const { role, tenants, password = '' } = parseForm(body, true);
      await deps.operators.create(administrator(request), { name: form.name, role, tenants, password });
      request.log.info({ name: form.name, role }, 'operator added');
      request.session.notice = `Operator ${form.name} (${role}, ${tenantsText(tenants)}) can sign in.`;
      return reply.redirect('/admin/operators', 303);
    } catch (err) {
      if (err instanceof AdminError) return showOperators(deps.operators, request, reply, form, err);
      throw err;
    }
  });

  app.get<{ Params: { name: string } }>('/admin/operators/:name', { config: list }, async (request, reply) => {
    if (!deps.operators) return needsDatabase(request, reply, FRAME.title, 'Operators with roles');
    return showOperator(deps.operators, request, reply, request.params.name);
  });

  app.post<{ Params: { name: string }; Body: OperatorBody }>(
    '/admin/operators/:name',
    changes('operator.update'),
    async (request, reply) => {
      if (!deps.operators) return needsDatabase(request, reply, FRAME.title, 'Operators with roles');
      const { name } = request.params;
      const body = request.body ?? {};
      try {
        await deps.operators.update(administrator(request), name, parseForm(body, false));
      } catch (err) {
        if (!(err instanceof AdminError)) throw err;
        if (err.kind === 'not-found') return noOperator(request, reply);
        return showOperator(deps.operators, request, reply, name, {
          form: typed(body, EMPTY_OPERATOR_FORM),
          error: err,
        });
      }
      request.log.info({ name }, 'operator changed');
      request.session.notice = `Operator ${name} changed; it applies from their next request.`;
      return reply.redirect(`/admin/operators/${encodeURIComponent(name)}`, 303);
    },
  );

  app.post<{ Params: { name: string }; Body: { confirm?: unknown } }>(
    '/admin/operators/:name/disable',
    changes('operator.disable'),
    async (request, reply) => {
      if (!deps.operators) return needsDatabase(request, reply, FRAME.title, 'Operators with roles');
      const { name } = request.params;
      const back = `/admin/operators/${encodeURIComponent(name)}`;
      if (text(request.body?.confirm) !== 'yes') {
        request.session.notice = 'Not disabled: tick the box to confirm.';
        return reply.redirect(back, 303);
      }
      try {
        await deps.operators.disable(administrator(request), name);
      } catch (err) {
        if (!(err instanceof AdminError)) throw err;
        if (err.kind === 'not-found') return noOperator(request, reply);
        request.session.notice = `Not disabled (field ${err.field}): ${err.reason}.`;
        return reply.redirect(back, 303);
      }
      request.log.info({ name }, 'operator disabled');
      request.session.notice = `Operator ${name} disabled: their session ends at their next request.`;
      return reply.redirect('/admin/operators', 303);
    },
  );
}

async function showOperator(
  admin: OperatorAdmin,
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  refused: { form: OperatorForm; error: AdminError } | undefined = undefined,
) {
  const who = administrator(request);
  const operator = await admin.find(who, name).catch((err: unknown) => {
    if (err instanceof AdminError) return undefined;
    throw err;
  });
  if (!operator) return noOperator(request, reply);
  return sendPage(
    request,
    reply,
    { ...FRAME, title: `Operator ${operator.name}` },
    (csrf) => operatorView(csrf, who.tenants, operator, { self: operator.name === who.operator, ...refused }),
    refused ? 400 : 200,
  );
}

const noOperator = (request: FastifyRequest, reply: FastifyReply) =>
  notFoundPage(request, reply, 'There is no active operator of this name.');
