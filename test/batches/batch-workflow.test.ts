import assert from 'node:assert/strict';
import { batchWorkflowId } from '../../workflows/batch-ids.js';
import { BatchId } from '../../workflows/search-attributes.js';
import { v2Intake } from '../setup/fixtures.js';
import { testTemporal } from '../setup/temporal.js';
import { startWorkflowHarness, type WorkflowHarness } from '../setup/workflow-harness.js';
import { batchIdFor, submitRequests, waitForBatch } from './helpers.js';

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
  });
});
