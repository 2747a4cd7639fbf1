import type { FastifyReply, FastifyRequest } from 'fastify';
import { ownedIfAny } from '../../src/access/owned-object.js';
import { refusalEvent } from '../../src/access/refusals.js';
import { declaredAction } from '../../src/access/route-declarations.js';
import type { AuditEvent } from '../../src/audit/audit-entry.js';
import type { IntakeAccess } from './access.js';
import { principalOf } from './access.js';
import { idsFromPath } from './owned.js';

/** What a route adds to its entry: the action defaults to the one it declares, the object to the one it owns. */
export type AuditDetails = Partial<Omit<AuditEvent, 'actor' | 'source'>>;

const written = new WeakSet<FastifyRequest>();

/**
 * Appends the request's entry to the audit trail (docs/operating/access-and-audit.md) now, before the answer goes
 * out: a disclosure whose entry cannot be written is not made (the write's failure becomes the request's 500). The
 * entry's action is the route's declared one unless `details` names another; its workflow or batch is the object the
 * route owns; its tenant that object's (whatever the caller's scope: a client of every tenant records the tenant of
 * what it touched), else the caller's.
 */
export async function audited(access: IntakeAccess, request: FastifyRequest, details: AuditDetails = {}) {
  written.add(request);
  if (!access.audit) return;
  const principal = principalOf(request);
  const owned = ownedIfAny(request);
  const action = details.action ?? declaredAction(request);
  if (action === undefined) throw new Error(`${request.routeOptions.url} audits without an action`);
  await access.audit.append({
    ...(owned?.workflowId ? { workflowId: owned.workflowId } : {}),
    ...(owned?.batch ? { batchId: owned.batch.batchId } : {}),
    outcome: 'ok',
    ...details,
    action,
    actor: principal.actor,
    tenant:
      details.tenant !== undefined ? details.tenant : owned?.tenant !== undefined ? owned.tenant : principal.tenant,
    source: request.ip,
  });
}

/**
 * A refused request's entry (decision 84): a 403 or 404 of a declared route, to a caller with a key, is one `denied`
 * or `not-found` entry (src/access/refusals.ts). A request without a valid key has its own (`intake.sign-in`), and a
 * path that is no route names nothing.
 */
async function auditRefused(access: IntakeAccess, request: FastifyRequest, status: number): Promise<void> {
  const declared = request.routeOptions.config.access;
  if (!access.audit || !request.principal || declared === undefined || 'open' in declared) return;
  written.add(request);
  await access.audit.append({
    ...refusalEvent(request, status, request.principal.tenant, idsFromPath(request)),
    actor: request.principal.actor,
    source: request.ip,
  });
}

/**
 * The entry of a route that answered without writing one (`onSend`, before the answer leaves): a 2xx of a route that
 * declares an action, so a route whose entry needs nothing of the answer writes none by hand and a route cannot answer
 * without its entry; and every refusal (403, 404), whichever hook or handler refused.
 */
export const auditAnswered =
  (access: IntakeAccess) =>
  async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (written.has(request)) return payload;
    const status = reply.statusCode;
    if (status === 403 || status === 404) await auditRefused(access, request, status);
    else if (status >= 200 && status < 300 && declaredAction(request) !== undefined) await audited(access, request);
    return payload;
  };
