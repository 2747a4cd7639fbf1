import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { cancelRunningItems } from './cancel-items.js';
import { countBatchItems } from './count.js';
import { resubmitItems } from './resubmit-items.js';
import { startPageItems } from './start-items.js';
import type { StartPace } from './start-pace.js';
import { recordBatchItems } from '../../src/metrics/project-metrics.js';
import { batchWorkflowId } from '../../workflows/shared/batch-ids.js';
import type { BatchActivities } from '../../workflows/batch/index.js';
import type { TenantWeights } from '../../workflows/shared/priority.js';
import type {
  PageStartResult,
  ResubmitItemsInput,
  ResubmittedItem,
  StartBatchItemsInput,
  VisibleItemCounts,
} from '../../workflows/shared/batch-types.js';

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
  /** How long one `startBatchItems` takes rows (default `START_SLICE_MS`); tests shorten it to see pages loop. */
  startSliceMs?: number;
}

/**
 * The activities of batches (docs/integrating/batches.md): calls to Temporal, not to the service. Batches run them as
 * local activities (workflows/batch/batch-activity-options.ts). It implements the batch workflows' port,
 * `BatchActivities`.
 */
export function createBatchActivities(deps: BatchActivityDeps): BatchActivities {
  return {
    startBatchItems: async (input: StartBatchItemsInput): Promise<PageStartResult> => {
      const result = await startPageItems(deps, input, deps.startSliceMs);
      recordBatchItems({
        started: result.started,
        duplicates: result.duplicates.length,
        notStarted: result.notStarted.length,
      });
      return result;
    },
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
