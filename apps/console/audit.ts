import type { FastifyReply, FastifyRequest } from 'fastify';
import { refusalEvent, refusalOf } from '../../src/access/refusals.js';
import { declaredAction } from '../../src/access/route-declarations.js';
import type { AuditEvent } from '../../src/audit/audit-entry.js';
import type { AuditTrail } from '../../src/audit/audit-trail.js';
import { statusFields } from '../../src/audit/patient-fields.js';
import { ownedIfAny } from '../../src/access/owned-object.js';
import type { VerificationDetail } from './reads/verification.js';
import { operatorOf } from './session.js';

/** What a route adds to its entry; the actor (`operator:<name>`) and the source (the request's address) are added. */
export type ConsoleEvent = Partial<Omit<AuditEvent, 'actor' | 'source'>> & {
  /** Who acted; default the signed-in operator (a sign-in names the operator before the session does). */
  operator?: string;
};

const written = new WeakSet<FastifyRequest>();

/**
 * Appends the request's entry to the audit trail (docs/operating/console.md) before the answer goes out: a page whose
 * entry cannot be written is not sent (the write's failure becomes the request's 500). Without a trail nothing is
 * recorded. The action is the route's declared one (`config.audit`) unless the event names another; the workflow or
 * batch and the tenant are those of the object the route owns, unless the event says otherwise.
 */
export async function audited(trail: AuditTrail | undefined, request: FastifyRequest, event: ConsoleEvent = {}) {
  written.add(request);
  if (!trail) return;
  const { operator = operatorOf(request).name, ...rest } = event;
  const action = rest.action ?? declaredAction(request);
  if (action === undefined) throw new Error(`${request.routeOptions.url} audits without an action`);
  const object = ownedIfAny(request);
  await trail.append({
    ...(object?.workflowId ? { workflowId: object.workflowId } : {}),
    ...(object?.batch ? { batchId: object.batch.batchId } : {}),
    ...(object?.tenant !== undefined ? { tenant: object.tenant } : {}),
    outcome: 'ok',
    ...rest,
    action,
    actor: `operator:${operator}`,
    source: request.ip,
  });
}

/** The names of the patient data a workflow's page shows: its patient, and what the service found for them. */
const shownFields = (detail: VerificationDetail): string[] => [
  ...(detail.patient?.fields ?? []),
  ...(detail.status ? statusFields(detail.status) : []),
];

/**
 * A workflow's page (its verification page, or the page answering its runs): `verification.read`, naming the fields
 * shown. A page that shows no patient data (a run or batch workflow's) is not a disclosure and gets no entry.
 */
export async function auditRead(trail: AuditTrail | undefined, request: FastifyRequest, detail: VerificationDetail) {
  const fields = shownFields(detail);
  if (fields.length === 0) return;
  await audited(trail, request, {
    action: 'verification.read',
    workflowId: detail.workflowId,
    tenant: detail.tenant ?? null,
    fields,
  });
}

/**
 * A refused request's entry (`onSend`, before the page leaves; decision 84): a 403 or 404 of a route that declares a
 * role, or one the wall noted (a hidden administrators' route), is one `denied` or `not-found` entry
 * (src/access/refusals.ts), unless its route wrote its own. Open routes (sign-in) record their own refusals, and a
 * path that is no route names nothing.
 */
export const recordRefusals =
  (trail: AuditTrail | undefined) =>
  async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const status = reply.statusCode;
    if (!trail || (status !== 403 && status !== 404) || written.has(request)) return payload;
    const access = request.routeOptions.config.access;
    if (!refusalOf(request) && (access === undefined || 'open' in access)) return payload;
    const { name, tenants } = operatorOf(request);
    written.add(request);
    await trail.append({
      ...refusalEvent(request, status, tenants?.length === 1 ? tenants[0]! : null),
      actor: `operator:${name}`,
      source: request.ip,
    });
    return payload;
  };
