import type { Client } from '@temporalio/client';
import { listBatches, type BatchView } from '../../../src/batches/describe.js';

/** The newest batches of the operator's tenants (`tenants` null: every batch, those without a tenant too). */
export async function batchesOf(
  client: Client,
  tenants: readonly string[] | null,
  pageSize: number,
): Promise<BatchView[]> {
  const { batches } = await listBatches(client, { pageSize, ...(tenants !== null ? { tenant: tenants } : {}) });
  return batches;
}
