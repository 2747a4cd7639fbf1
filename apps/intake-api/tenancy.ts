import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyRequest } from 'fastify';
import { maySee } from '../../src/access/principal.js';
import { BatchNotFoundError } from '../../src/batches/actions.js';
import { describeBatch } from '../../src/batches/describe.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { principalOf } from './access.js';
import { withDeadline, type IntakeDeps } from './deps.js';

/**
 * The tenant of a workflow the caller names, once it is the caller's to see (docs/operating/access-and-audit.md).
 * Another tenant's workflow is refused exactly as one that does not exist (404 `no such workflow`): a caller learns
 * nothing of other clinics. A caller of every tenant needs no look.
 */
export async function ownWorkflow(deps: IntakeDeps, request: FastifyRequest, workflowId: string) {
  const principal = principalOf(request);
  if (principal.tenant === null) return;
  const described = await withDeadline(deps, () => deps.client.workflow.getHandle(workflowId).describe());
  if (!maySee(principal, described.typedSearchAttributes.get(Tenant))) {
    throw new WorkflowNotFoundError('no such workflow', workflowId, undefined);
  }
}

/** The batch, when the caller may see it: another tenant's is answered as one that does not exist (undefined). */
export async function ownBatch(deps: IntakeDeps, request: FastifyRequest, batchId: string) {
  const view = await describeBatch(deps.client, batchId);
  return view && maySee(principalOf(request), view.tenant) ? view : undefined;
}

/**
 * Before an action on a batch: throws `BatchNotFoundError` when it is another tenant's, as when it does not exist. A
 * caller of every tenant needs no look (the action itself finds a batch that does not exist).
 */
export async function requireOwnBatch(deps: IntakeDeps, request: FastifyRequest, batchId: string): Promise<void> {
  if (principalOf(request).tenant === null) return;
  if (!(await ownBatch(deps, request, batchId))) throw new BatchNotFoundError(batchId);
}

/**
 * The tenant what a caller starts belongs to: its credential's. A body naming another tenant is refused (403 naming
 * `tenant`); a caller of every tenant may name one.
 */
export function tenantToStart(
  request: FastifyRequest,
  named: string | undefined,
): { tenant: string | undefined } | { refused: string } {
  const { tenant } = principalOf(request);
  if (tenant === null) return { tenant: named };
  if (named !== undefined && named !== tenant) return { refused: 'this client acts for another tenant' };
  return { tenant };
}
