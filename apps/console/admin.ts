import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Administrator } from '../../src/access/administrator.js';
import type { ClientAdmin } from '../../src/access/client-admin.js';
import type { OperatorAdmin } from '../../src/access/operator-admin.js';
import type { AuditTrail } from '../../src/audit/audit-trail.js';
import { sendPage } from './deps.js';
import { operatorOf } from './session.js';
import { html } from './views/html.js';

/** What the administrators' pages use; each is absent without the project's database (DATABASE_URL). */
export interface AdminDeps {
  clients?: ClientAdmin;
  operators?: OperatorAdmin;
  audit?: AuditTrail;
}

/** The signed-in administrator as src/access's rules see them: `operator:<name>`, their tenants, the address. */
export function administrator(request: FastifyRequest): Administrator {
  const { name, tenants } = operatorOf(request);
  return { actor: `operator:${name}`, operator: name, tenants, source: request.ip };
}

/** A form field's values: none, one, or several (repeated checkboxes). */
export const values = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string');

/** The field's one text value, or ''. */
export const text = (value: unknown): string => values(value)[0]?.trim() ?? '';

/** The page said when the console runs without the database that holds what the page manages. */
export function needsDatabase(request: FastifyRequest, reply: FastifyReply, title: string, what: string) {
  return sendPage(
    request,
    reply,
    { title },
    () =>
      html`<p>
        ${what} live in the project's database. This console runs without one (DATABASE_URL is not set), so there is
        nothing to manage here.
      </p>`,
  );
}
