import type { ItemStarter } from './start-items.js';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { cancelRunningItems } from './cancel-items.js';
import { countBatchItems } from './count.js';
import { resubmitItems } from './resubmit-items.js';
import { startPageItems } from './start-page.js';
import type { StartPace } from './start-pace.js';
import {
  batchWorkflowId,
  type BatchActivities,
  type PageStartResult,
  type ResubmitItemsInput,
  type ResubmittedItem,
  type StartBatchItemsInput,
  type VisibleItemCounts,
} from '../../workflows/batch/batch.js';
import type { TenantWeights } from '../../workflows/shared/priority.js';
import type { BlindIndexKeys } from '../../src/blind-index/keys.js';

export interface BatchActivityDeps {
  /** A Temporal client of the worker's process, with the same converter (payloads are encrypted). */
  client: Client;
  /** Where the items' verifications run: the worker's own task queue. */
  taskQueue: string;
  /** Fairness weights by tenant (`ELIGIBILITY_TENANT_WEIGHTS`), given to the items' priority. */
  tenantWeights?: TenantWeights;
  /** How fast pages start their rows: one per worker, so its pages share it. Unset: as fast as Temporal takes them. */
  startPace?: StartPace;
  /** The patient search index's keys: items are started with their keyed hashes (src/blind-index). */
  blindIndex?: BlindIndexKeys;
  /** Payer names known now (src/payers): Temporal UI shows an item's payer by name. */
  payerNames?: ItemStarter['payerNames'];
}

/**
 * The activities of batches (docs/integrating/batches.md): calls to Temporal, not to the service, run as activities
 * (workflows/batch/batch-activity-options.ts). It implements the batch workflows' port, `BatchActivities`.
 */
export function createBatchActivities(deps: BatchActivityDeps): BatchActivities {
  return {
    startBatchItems: (input: StartBatchItemsInput): Promise<PageStartResult> => startPageItems(deps, input),
    countBatchItems: (batchId: string): Promise<VisibleItemCounts> => countBatchItems(deps.client, batchId),
    resubmitBatchItems: (input: ResubmitItemsInput): Promise<ResubmittedItem[]> => resubmitItems(deps, input),
    cancelBatchItems: (batchId: string): Promise<number> => cancelRunningItems(deps.client, batchId),
    batchExists: async (batchId: string): Promise<boolean> => {
      try {
        await deps.client.workflow.getHandle(batchWorkflowId(batchId)).describe();
        return true;
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return false;
        throw err;
      }
    },
  };
}
