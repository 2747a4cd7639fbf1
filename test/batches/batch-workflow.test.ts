import assert from 'node:assert/strict';
import { type batchPageWorkflow, batchPageWorkflowId, batchWorkflowId } from '../../workflows/batch/batch.js';
import { MockActivityEnvironment } from '@temporalio/testing';
import { startPageItems, type PageProgress } from '../../activities/batch/start-page.js';
import { cancelBatch } from '../../src/batches/actions.js';
import { validateSubmission } from '../../src/batches/prepare.js';
import { BatchId } from '../../workflows/shared/search-attributes.js';
import { v2Intake } from '../../testing/fixtures.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { batchIdFor, failedItemReasons, FAST_BATCH, submitRequests, waitForBatch } from '../../testing/batches.js';
import { pendingDiscovery } from '../../testing/sandbox.js';

describe('batch workflow', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  const client = () => testTemporal().client;

  before(async () => {
    h = await startWorkflowHarness();
  });
  after(async () => {
    await h?.stop();
  });

  it('starts its items page by page and counts them by outcome until every one has closed', async () => {
    const batchId = batchIdFor('counts');
    const requests = [
      v2Intake(),
      v2Intake({ id: undefined }),
      v2Intake({ payerId: '99999' }),
      v2Intake({ patient: { firstName: 'X' } }),
      v2Intake(),
    ];
    const submitted = await submitRequests(client(), h.taskQueue, batchId, requests, { pageSize: 2 });
    assert.deepEqual(
      { items: submitted.items, invalid: submitted.invalid, pages: submitted.pages, duplicate: submitted.duplicate },
      { items: 4, invalid: 1, pages: 3, duplicate: false },
    );
    const view = await waitForBatch(client(), batchId);
    assert.equal(view.counts.outcomes.completed, 3, JSON.stringify(view.counts));
    assert.equal(view.counts.outcomes.failed, 1);
    assert.equal(view.counts.queued, 0);
    assert.equal(view.counts.invalid, 1);
    const { count } = await client().workflow.count(`BatchId = "${batchId}" AND WorkflowType = 'verificationWorkflow'`);
    assert.equal(count, 4);
    const description = await client().workflow.getHandle(batchWorkflowId(batchId)).describe();
    assert.equal(description.typedSearchAttributes.get(BatchId), batchId);
    // Its looks at the counts are activities, outside its workflow tasks (a local activity would be a marker).
    const { events } = await client().workflow.getHandle(batchWorkflowId(batchId)).fetchHistory();
    const activities = (events ?? []).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name);
    assert.ok(activities.includes('countBatchItems'), 'countBatchItems runs as an activity');
    await recordHistory('batch-finished', client().workflow.getHandle(batchWorkflowId(batchId)));
    await recordHistory('batch-page', client().workflow.getHandle(batchPageWorkflowId(batchId, 1)));
  });

  it('continues as new before its history grows long, keeping its pages, counts and rounds', async () => {
    const batchId = batchIdFor('can');
    const requests = Array.from({ length: 6 }, () => v2Intake());
    await submitRequests(client(), h.taskQueue, batchId, requests, {
      pageSize: 1,
      timing: { ...FAST_BATCH, continueAfterEvents: 40 },
    });
    const view = await waitForBatch(client(), batchId);
    if (view.counts.outcomes.completed !== 6) {
      assert.fail(`${JSON.stringify(view.counts)}; failed: ${await failedItemReasons(client(), batchId)}`);
    }
    assert.equal(view.counts.queued, 0);
    let runs = 0;
    for await (const run of client().workflow.list({ query: `WorkflowId = '${batchWorkflowId(batchId)}'` })) {
      runs += 1;
      assert.ok(run.historyLength < 80, `run ${run.runId} has ${run.historyLength} events`);
    }
    assert.ok(runs >= 2, `${runs} run(s): it continued as new`);
  });

  it('cancelled at once: pages not yet released start nothing, started items end cancelled, the parts add up', async () => {
    const batchId = batchIdFor('cancel-pages');
    const discovery = await pendingDiscovery(h.sandbox);
    const requests = Array.from({ length: 12 }, () =>
      v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId }),
    );
    await submitRequests(client(), h.taskQueue, batchId, requests, {
      pageSize: 1,
      timing: { ...FAST_BATCH, pagesInFlight: 1 },
    });
    await cancelBatch(client(), batchId);
    const view = await waitForBatch(client(), batchId, (v) => v.state === 'cancelled');
    const { counts } = view;
    assert.ok(counts.skipped > 0, `some pages were never released: ${JSON.stringify(counts)}`);
    assert.equal(counts.skipped + counts.outcomes.cancelled, 12, JSON.stringify(counts));
    const { count } = await client().workflow.count(`BatchId = "${batchId}" AND WorkflowType = 'verificationWorkflow'`);
    assert.equal(count, 12 - counts.skipped, 'a skipped row never started');
    // Everything of the batch closes: its items as cancelled, the batch once its last events reached the dispatcher.
    // Visibility tells it a moment after the memo does.
    await eventually(
      async () => {
        const running = await client().workflow.count(`BatchId = "${batchId}" AND ExecutionStatus = 'Running'`);
        return running.count === 0 ? true : undefined;
      },
      10_000,
      'every workflow of the batch to close',
    );
    await recordHistory('batch-cancelled', client().workflow.getHandle(batchWorkflowId(batchId)));
  });

  it('a page starts its items in one activity, never inside a workflow task', async () => {
    const batchId = batchIdFor('page-activity');
    const requests = [v2Intake(), v2Intake({ id: undefined }), v2Intake({ payerId: '99999' }), v2Intake()];
    await submitRequests(client(), h.taskQueue, batchId, requests);
    const view = await waitForBatch(client(), batchId);
    assert.deepEqual(
      [view.counts.outcomes.completed, view.counts.outcomes.failed],
      [3, 1],
      JSON.stringify(view.counts),
    );
    const page = client().workflow.getHandle<typeof batchPageWorkflow>(batchPageWorkflowId(batchId, 1));
    const result = await page.result();
    assert.deepEqual([result.started, result.duplicates, result.notStarted], [4, [], []]);
    const events = (await page.fetchHistory()).events ?? [];
    const scheduled = events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    assert.deepEqual(scheduled, ['startBatchItems']);
    assert.equal(events.filter((e) => e.markerRecordedEventAttributes).length, 0);
  });

  it('a retried page start resumes after the rows its last heartbeat names, and starts each row once', async () => {
    const batchId = batchIdFor('resumed');
    const requests = Array.from({ length: 4 }, () => v2Intake());
    const { valid } = validateSubmission(
      requests.map((request, i) => ({ row: i + 1, request })),
      { sandbox: false },
    );
    const starter = { client: client(), taskQueue: h.taskQueue };
    const input = { batchId, page: 1, items: valid, options: { retryWindowSeconds: 60 } };
    // The attempt that died: it started rows 1 to 3, and its last heartbeat named rows 1 and 2.
    await new MockActivityEnvironment().run(startPageItems, starter, { ...input, items: valid.slice(0, 3) });
    const heartbeatDetails: PageProgress = { done: [1, 2], result: { started: 2, duplicates: [], notStarted: [] } };
    const retry = new MockActivityEnvironment({ heartbeatDetails });
    const result = await retry.run(startPageItems, starter, input);
    // Row 3 is found under its derived id and counted as started, not as a duplicate; row 4 starts now.
    assert.deepEqual(result, { started: 4, duplicates: [], notStarted: [] });
    const { count } = await client().workflow.count(`BatchId = "${batchId}" AND WorkflowType = 'verificationWorkflow'`);
    assert.equal(count, 4);
  });

  it('a page whose batch never came starts nothing; submitting again reuses the stored pages', async () => {
    const batchId = batchIdFor('interrupted');
    const requests = [v2Intake(), v2Intake()];
    // What a submitter that died after storing the page leaves: the page, no batch.
    const { valid, invalid } = validateSubmission(
      requests.map((request, i) => ({ row: i + 1, request })),
      { sandbox: false },
    );
    const orphan = await client().workflow.start<typeof batchPageWorkflow>('batchPageWorkflow', {
      workflowId: batchPageWorkflowId(batchId, 1),
      taskQueue: h.taskQueue,
      args: [
        { batchId, page: 1, items: valid, invalid, options: { retryWindowSeconds: 60 }, releaseWithinSeconds: 0.5 },
      ],
    });
    const result = await orphan.result();
    assert.deepEqual([result.outcome, result.started, result.skipped], ['unreleased', 0, [1, 2]]);
    const none = await client().workflow.count(`BatchId = "${batchId}" AND WorkflowType = 'verificationWorkflow'`);
    assert.equal(none.count, 0);

    await submitRequests(client(), h.taskQueue, batchId, requests);
    const view = await waitForBatch(client(), batchId);
    assert.equal(view.counts.outcomes.completed, 2, JSON.stringify(view.counts));
  });
});
