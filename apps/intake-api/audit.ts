import type { FastifyReply, FastifyRequest } from 'fastify';
import { declaredAction } from '../../src/access/route-declarations.js';
import type { AuditEvent } from '../../src/audit/audit-entry.js';
import type { IntakeAccess } from './access.js';
import { principalOf } from './access.js';
import { ownedIfAny } from '../../src/access/owned-object.js';

/** What a route adds to its entry: the action defaults to the one it declares, the object to the one it owns. */
export type AuditDetails = Partial<Omit<AuditEvent, 'actor' | 'source'>>;

const written = new WeakSet<FastifyRequest>();

/**
 * Appends the request's entry to the audit trail (docs/operating/access-and-audit.md) now, before the answer goes
 * out: a disclosure whose entry cannot be written is not made (the write's failure becomes the request's 500). The
 * entry's action is the route's declared one unless `details` names another; its workflow or batch is the object the
 * route owns; its tenant the caller's.
 */
export async function audited(access: IntakeAccess, request: FastifyRequest, details: AuditDetails = {}) {
  written.add(request);
  if (!access.audit) return;
  const principal = principalOf(request);
  const { workflowId, batch } = ownedIfAny(request) ?? {};
  const action = details.action ?? declaredAction(request);
  if (action === undefined) throw new Error(`${request.routeOptions.url} audits without an action`);
  await access.audit.append({
    ...(workflowId ? { workflowId } : {}),
    ...(batch ? { batchId: batch.batchId } : {}),
    outcome: 'ok',
    ...details,
    action,
    actor: principal.actor,
    tenant: details.tenant ?? principal.tenant,
    source: request.ip,
  });
}

/**
 * The entry of a route that declares an action and answered 2xx without writing one: written by this hook (`onSend`,
 * before the answer leaves), so a route whose entry needs nothing of the answer writes none by hand and a route
 * cannot answer without its entry.
 */
export const auditAnswered =
  (access: IntakeAccess) =>
  async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (written.has(request) || declaredAction(request) === undefined) return payload;
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    await audited(access, request);
    return payload;
  };
