import type { Client } from '@temporalio/client';
import { batchView, type BatchView } from '../../../src/batches/describe.js';
import { visibilityPage } from '../../../src/batches/visibility-page.js';
import { and, isOneOf, ofType } from '../../../src/temporal/visibility-query.js';
import { Tenant } from '../../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../../workflows/shared/workflow-types.js';

/** The newest batches of the operator's tenants (`tenants` null: every batch, those without a tenant too). */
export async function batchesOf(
  client: Client,
  tenants: readonly string[] | null,
  pageSize: number,
): Promise<BatchView[]> {
  if (tenants !== null && tenants.length === 0) return [];
  const batches = ofType(WorkflowType.batch);
  const query = tenants === null ? batches : and(batches, isOneOf(Tenant, tenants));
  const page = await visibilityPage(client, query, pageSize);
  return page.infos.flatMap((info) => batchView(info) ?? []);
}
