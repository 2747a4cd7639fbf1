import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { mayAct, operatorSees } from '../../src/access/operators.js';
import { describeBatch, type BatchView } from '../../src/batches/describe.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { audit } from './audit.js';
import { sendPage, withDeadline, type ConsoleDeps } from './deps.js';
import { verificationDetail, type VerificationDetail } from './reads/verification.js';
import { operatorOf } from './session.js';
import { html } from './views/html.js';

/**
 * Roles and tenants in the console (docs/operating/console.md). An operator scoped to tenants sees their objects only:
 * another tenant's workflow or batch (and one started without a tenant) is answered exactly as one that does not exist,
 * before anything of it is read or done. A viewer reads only.
 */

/** Whether the operator may act: src/access/operators.ts's rule, the CLI's too. */
export { mayAct };

/**
 * The workflow's tenant (null: started without one) when `workflowId` exists and is the request's operator's to see;
 * undefined otherwise. The tenant goes into the audit entry of whatever the operator then does to it.
 */
export async function seesWorkflow(
  deps: ConsoleDeps,
  request: FastifyRequest,
  workflowId: string,
): Promise<{ tenant: string | null } | undefined> {
  let tenant: string | undefined;
  try {
    const described = await withDeadline(deps, () => deps.client.workflow.getHandle(workflowId).describe());
    tenant = described.typedSearchAttributes.get(Tenant);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
  return operatorSees(operatorOf(request), tenant) ? { tenant: tenant ?? null } : undefined;
}

/**
 * A workflow's page data, when it exists and is the operator's to see: its tenant is checked as soon as it is
 * described, so nothing of another tenant's (its input, its status) is read at all.
 */
export async function visibleDetail(
  deps: ConsoleDeps,
  request: FastifyRequest,
  workflowId: string,
): Promise<VerificationDetail | undefined> {
  const operator = operatorOf(request);
  return withDeadline(deps, () =>
    verificationDetail(deps.client, workflowId, { sees: (tenant) => operatorSees(operator, tenant) }),
  );
}

/** The batch, when it exists and is the request's operator's to see. */
export async function visibleBatch(
  deps: ConsoleDeps,
  request: FastifyRequest,
  batchId: string,
): Promise<BatchView | undefined> {
  const view = await withDeadline(deps, () => describeBatch(deps.client, batchId));
  return view && operatorSees(operatorOf(request), view.tenant) ? view : undefined;
}

/**
 * Refuses an action to an operator whose role may not act: a 403 page saying so, and a `denied` entry in the audit
 * trail; nothing is sent to Temporal. Answers true when it refused (the page is sent: the route returns `reply`), false
 * when the operator may act. (Not the reply itself: a reply is thenable, and awaiting it waits for the response.)
 */
export async function refuseReadOnly(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  refused: { action: string; what: string; workflowId?: string; batchId?: string },
): Promise<boolean> {
  const operator = operatorOf(request);
  if (mayAct(operator)) return false;
  const { action, what, workflowId, batchId } = refused;
  request.log.warn({ operator: operator.name, role: operator.role, action }, 'console action refused to role');
  await audit(deps.audit, request, {
    action,
    ...(workflowId ? { workflowId } : {}),
    ...(batchId ? { batchId } : {}),
    outcome: 'denied',
  });
  sendPage(
    request,
    reply,
    { title: 'Not allowed' },
    () =>
      html`<p>Your role (${operator.role}) cannot ${what}. Nothing was done.</p>
        <p><a href="/awaiting-input">Back to the console</a></p>`,
    403,
  );
  return true;
}
