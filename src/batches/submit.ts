import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import {
  BATCH_MEMO_KEY,
  type BatchAbout,
  type BatchItemOptions,
  type BatchMemo,
  type BatchPageInput,
  type batchPageWorkflow,
  batchPageWorkflowId,
  type BatchRowProblem,
  type BatchRowRequest,
  type BatchTiming,
  type batchWorkflow,
  batchWorkflowId,
  type BatchWorkflowInput,
  resolveBatchTiming,
} from '../../workflows/batch/batch.js';
import { ITEM_OUTCOMES, RUNNING_STAGES } from '../../workflows/shared/stages.js';
import { lanePriority } from '../../workflows/shared/priority.js';
import { BatchId, Tenant } from '../../workflows/shared/search-attributes.js';
import { inLanes } from './lanes.js';
import { paginate } from './prepare.js';
import { retryUnavailable } from './retry-unavailable.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { startMetadata } from '../../workflows/shared/start-metadata.js';

/** What a batch is made of, validated: its id, its rows and what every item carries. */
export interface BatchSubmission {
  batchId: string;
  valid: BatchRowRequest[];
  invalid: BatchRowProblem[];
  options: BatchItemOptions;
  /** Its label and submitter: shown beside its id, not part of it (the same rows are the same batch). */
  about?: BatchAbout;
}

export interface SubmitBatchOptions {
  /** The task queue of the batch, its pages and its items. */
  taskQueue: string;
  timing?: Partial<BatchTiming>;
  /** How long a Temporal that is unavailable is waited for (the CLI); 0, the default, fails at once (the API's 503). */
  retryUnavailableMs?: number;
  /** Rows per page (tests make small pages to have several). */
  pageSize?: number;
  /** After each page is stored, for progress. */
  onPage?: (stored: number, pages: number) => void;
}

export interface SubmittedBatch {
  batchId: string;
  workflowId: string;
  /** The batch existed already (the same submission, or the same id): nothing new was started. */
  duplicate: boolean;
  items: number;
  invalid: number;
  pages: number;
}

export async function batchExists(client: Client, batchId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(batchWorkflowId(batchId)).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/**
 * Makes a batch durable, then returns: every page (its rows in its input) is started first, the batch itself last.
 * A submitter that dies half-way leaves pages without a batch, which start nothing and end on their own; submitting
 * again (the same content gives the same id) reuses the pages already stored and starts the batch. Once this returns,
 * the batch owns everything: the caller may go away.
 */
export async function submitBatch(
  client: Client,
  submission: BatchSubmission,
  options: SubmitBatchOptions,
): Promise<SubmittedBatch> {
  const { batchId, options: itemOptions } = submission;
  const timing = resolveBatchTiming(options.timing);
  const retry = <T>(call: () => Promise<T>) => retryUnavailable(call, options.retryUnavailableMs ?? 0);
  const pages = paginate(submission, options.pageSize);
  const summary = {
    batchId,
    workflowId: batchWorkflowId(batchId),
    items: submission.valid.length,
    invalid: submission.invalid.length,
    pages: pages.length,
  };
  if (await retry(() => batchExists(client, batchId))) return { ...summary, duplicate: true };

  // Set at start, where they are free: the whole batch is found with BatchId = "<id>".
  const typedSearchAttributes: SearchAttributePair[] = [{ key: BatchId, value: batchId }];
  if (itemOptions.tenant) typedSearchAttributes.push({ key: Tenant, value: itemOptions.tenant });
  // The batch and its pages are bulk work of their tenant, like their items (docs/developing/traffic.md): they never
  // overtake the front desk, and one tenant's pages do not crowd out another's.
  const priority = lanePriority('bulk', itemOptions.tenant);

  let stored = 0;
  const numbered = pages.map((page, index) => ({ ...page, number: index + 1 }));
  await inLanes(numbered, 4, async (page) => {
    const input: BatchPageInput = {
      batchId,
      page: page.number,
      items: page.items,
      invalid: page.invalid,
      options: itemOptions,
      releaseWithinSeconds: timing.releaseWithinSeconds,
    };
    await retry(() =>
      client.workflow.start<typeof batchPageWorkflow>(WorkflowType.batchPage, {
        workflowId: batchPageWorkflowId(batchId, input.page),
        taskQueue: options.taskQueue,
        args: [input],
        typedSearchAttributes,
        priority,
        // A page stored by an earlier, interrupted submission is kept; one that ended unreleased is stored again.
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        ...startMetadata('Batch page', {
          batchId,
          page: String(input.page),
          items: String(input.items.length),
          ...(itemOptions.tenant ? { tenant: itemOptions.tenant } : {}),
        }),
      }),
    );
    options.onPage?.((stored += 1), pages.length);
  });

  const createdAt = new Date().toISOString();
  const input: BatchWorkflowInput = {
    batchId,
    ...submission.about,
    createdAt,
    pageItems: pages.map((p) => p.items.length),
    invalid: submission.invalid.length,
    ...(itemOptions.tenant ? { tenant: itemOptions.tenant } : {}),
    retryWindowSeconds: itemOptions.retryWindowSeconds,
    ...(options.timing ? { timing: options.timing } : {}),
  };
  try {
    await retry(() =>
      client.workflow.start<typeof batchWorkflow>(WorkflowType.batch, {
        workflowId: summary.workflowId,
        taskQueue: options.taskQueue,
        args: [input],
        typedSearchAttributes,
        priority,
        // What followers read before the batch's first workflow task has run.
        memo: { [BATCH_MEMO_KEY]: initialMemo(input, submission) },
        ...startMetadata('Batch', {
          batchId,
          items: String(input.pageItems.reduce((a, b) => a + b, 0)),
          ...(input.tenant ? { tenant: input.tenant } : {}),
        }),
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        workflowIdConflictPolicy: 'FAIL',
      }),
    );
  } catch (err) {
    // Another submission of the same batch won the race: it is one batch either way.
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { ...summary, duplicate: true };
    throw err;
  }
  return { ...summary, duplicate: false };
}

function initialMemo(input: BatchWorkflowInput, submission: BatchSubmission): BatchMemo {
  const zeros = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, 0>;
  return {
    batchId: input.batchId,
    ...(input.label !== undefined ? { label: input.label } : {}),
    ...(input.submittedBy !== undefined ? { submittedBy: input.submittedBy } : {}),
    phase: 'starting',
    counts: {
      items: submission.valid.length,
      invalid: submission.invalid.length,
      duplicate: 0,
      notStarted: 0,
      skipped: 0,
      queued: submission.valid.length,
      running: zeros(RUNNING_STAGES),
      outcomes: zeros(ITEM_OUTCOMES),
    },
    pages: input.pageItems.length,
    ...(input.tenant ? { tenant: input.tenant } : {}),
    retryWindowSeconds: input.retryWindowSeconds,
    createdAt: input.createdAt,
    updatedAt: input.createdAt,
    round: 0,
  };
}
