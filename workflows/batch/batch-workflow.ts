import {
  allHandlersFinished,
  condition,
  getExternalWorkflowHandle,
  makeContinueAsNewFunc,
  proxyLocalActivities,
  setHandler,
  sleep,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { BatchActivities } from './activities.js';
import { batchActivityOptions } from './batch-activity-options.js';
import { batchPageWorkflowId } from '../shared/batch-ids.js';
import {
  batchStatusQuery,
  cancelBatchUpdate,
  pageReportSignal,
  releasePageSignal,
  resubmitUpdate,
  stopPageSignal,
} from '../shared/batch-messages.js';
import { BatchBook } from './batch-book.js';
import { resolveBatchTiming, type BatchTiming } from '../shared/batch-timing.js';
import {
  BATCH_STATE_TABLE,
  BATCH_MEMO_KEY,
  type BatchResult,
  type BatchWorkflowInput,
  type ResubmitRequest,
} from '../shared/batch-types.js';
import { ms } from '../shared/timing.js';
import { newVersionIsCurrent, ON_CURRENT_VERSION } from '../shared/versioning.js';
import { EventEmitter } from '../shared/event-emitter.js';
import { announceBatch } from './batch-events.js';

const { countBatchItems, resubmitBatchItems, cancelBatchItems } =
  proxyLocalActivities<BatchActivities>(batchActivityOptions);

/** Items started again per local activity: a few hundred starts fit its timeout with room to spare. */
const RESUBMIT_CHUNK = 200;

const nowIso = () => new Date().toISOString();

/**
 * A batch (docs/integrating/batches.md): releases its pages a few at a time (each starts its own items), follows its
 * items' counts in visibility with growing intervals, publishes them in its memo (followers describe it, which is free;
 * no query, no per-item message), resubmits the items of a round and cancels on request, and stays open for
 * resubmissions a while after every item has closed. Its state is small whatever the batch's size (the rows live in the
 * pages), and it continues as new before its history grows long.
 */
export async function batchWorkflow(input: BatchWorkflowInput): Promise<BatchResult> {
  const timing = resolveBatchTiming(input.timing);
  const state = new BatchBook(input, timing.pollInitialSeconds);
  const events = new EventEmitter(input.tenant);
  let closesAt: string | undefined;
  let published = '';
  const publish = () => {
    const memo = state.memo(closesAt);
    const { updatedAt: _u, ...content } = memo;
    const key = JSON.stringify(content);
    // Each upsert is a billed action: only a change is published, and its time becomes `updatedAt`.
    if (key === published) return;
    published = key;
    state.updatedAt = nowIso();
    upsertMemo({ [BATCH_MEMO_KEY]: { ...memo, updatedAt: state.updatedAt } });
  };

  setHandler(pageReportSignal, (report) => state.pageReported(report));
  setHandler(batchStatusQuery, () => state.memo(closesAt));
  setHandler(
    cancelBatchUpdate,
    () => {
      state.requestCancel();
      publish();
      return state.memo(closesAt);
    },
    { validator: () => state.assertCancellable() },
  );
  setHandler(
    resubmitUpdate,
    (request) => {
      const answer = state.requestResubmission(request, nowIso());
      publish();
      return answer;
    },
    { validator: (request: ResubmitRequest) => state.assertResubmittable(request) },
  );

  for (;;) {
    if (state.cancelRequested) {
      if (!state.cancelSwept) await cancelItems(input.batchId, state, timing);
    } else {
      await releasePages(input.batchId, state, timing);
      if (state.pendingRound) await resubmit(input.batchId, state);
    }
    state.visible = await countBatchItems(input.batchId);
    const before = published;
    closesAt = undefined;
    publish();
    announceBatch(input.batchId, state, events);
    // Items on their way change soon, so they are looked at often (a long interval leaves followers a picture minutes
    // old); settled ones wait for people or grace periods, and are looked at rarely.
    const busy = BATCH_STATE_TABLE[state.phase()].busy;
    const longest = busy ? timing.pollBusyMaxSeconds : timing.pollMaxSeconds;
    state.pollSeconds = published !== before ? timing.pollInitialSeconds : Math.min(longest, state.pollSeconds * 2);

    if (state.allClosed()) {
      if (state.cancelRequested) break;
      // Open for resubmissions a while; nothing changes meanwhile, so nothing is polled (one timer).
      closesAt = new Date(Date.now() + timing.keepOpenSeconds * 1000).toISOString();
      publish();
      if (!(await condition(() => state.wake, ms(timing.keepOpenSeconds)))) break;
      state.wake = false;
      continue;
    }
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength >= timing.continueAfterEvents || newVersionIsCurrent()) {
      await condition(allHandlersFinished);
      // A signal the server has not sent yet is dropped once its sender's run has closed.
      await events.kept();
      // The memo and search attributes go on explicitly: followers read the memo of whichever run is current.
      await makeContinueAsNewFunc<typeof batchWorkflow>({
        ...ON_CURRENT_VERSION,
        memo: { [BATCH_MEMO_KEY]: state.memo() },
        typedSearchAttributes: info.typedSearchAttributes,
      })({ ...input, carried: state.carry() });
    }
    await condition(() => state.wake, ms(state.pollSeconds));
    state.wake = false;
  }
  await condition(allHandlersFinished);
  publish();
  announceBatch(input.batchId, state, events);
  await events.kept();
  return { phase: state.cancelRequested ? 'cancelled' : 'finished', counts: state.counts(), round: state.round };
}

/** Releases pages in order while fewer than `pagesInFlight` are starting their items. */
async function releasePages(batchId: string, state: BatchBook, timing: BatchTiming): Promise<void> {
  while (state.released < state.pages && state.inFlight < timing.pagesInFlight) {
    const page = state.released + 1;
    state.released = page;
    try {
      await getExternalWorkflowHandle(batchPageWorkflowId(batchId, page)).signal(releasePageSignal);
    } catch {
      // The page no longer exists (terminated by hand): its items cannot start.
      state.pageLost(page);
    }
  }
}

/** Starts again, chunk by chunk, the items the pending round takes up; each one's new attempt is recorded at once. */
async function resubmit(batchId: string, state: BatchBook): Promise<void> {
  for (;;) {
    const pending = state.pendingRound;
    if (!pending || state.cancelRequested) break;
    const items = await resubmitBatchItems({
      batchId,
      round: pending.round,
      outcomes: pending.outcomes,
      latest: state.latest,
      limit: RESUBMIT_CHUNK,
    });
    state.resubmitted(items);
    if (items.length < RESUBMIT_CHUNK) break;
  }
  state.resubmissionDone();
}

/**
 * Stops the pages not yet released, waits for the released ones to finish starting, then cancels every running item;
 * a second sweep a moment later catches the starts visibility had not shown yet.
 */
async function cancelItems(batchId: string, state: BatchBook, timing: BatchTiming): Promise<void> {
  for (const page of state.skipUnreleased()) {
    try {
      await getExternalWorkflowHandle(batchPageWorkflowId(batchId, page)).signal(stopPageSignal);
    } catch {
      // Gone already: it starts nothing either way.
    }
  }
  await condition(() => state.inFlight === 0);
  await cancelBatchItems(batchId);
  await sleep(ms(timing.cancelSweepSeconds));
  await cancelBatchItems(batchId);
  state.cancelSwept = true;
}
