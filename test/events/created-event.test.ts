import assert from 'node:assert/strict';
import { Context } from '@temporalio/activity';
import { startVerification } from '../../src/temporal/start-verification.js';
import type { OutboundEvent, VerificationEventData } from '../../workflows/shared/event-catalogue.js';
import type { EmitActivities } from '../../workflows/shared/event-emitter.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

/** Where an event was kept from: an activity, or the workflow's local activity. */
interface Kept {
  event: OutboundEvent;
  from: 'activity' | 'local activity';
}

describe('the created event, kept by the workflow like every stage', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  const kept: Kept[] = [];

  before(async () => {
    const emit: EmitActivities = {
      emitEvent({ event }) {
        kept.push({ event, from: Context.current().info.isLocal ? 'local activity' : 'activity' });
        return Promise.resolve();
      },
    };
    h = await startWorkflowHarness(undefined, { emit });
  });
  after(async () => h?.stop());

  it('is kept by a local activity of the workflow, after the creation, with the new verification id', async () => {
    const client = testTemporal().client;
    const { workflowId } = await startVerification(client, v2Intake(), { taskQueue: h.taskQueue, timing: FAST });
    const handle = client.workflow.getHandle(workflowId);
    const result = (await handle.result()) as { verificationId: string };
    const events = kept.filter((k) => (k.event.data as VerificationEventData).workflowId === workflowId);
    assert.deepEqual(
      events.map((k) => [k.event.type, k.from]),
      [
        ['verification.created', 'local activity'],
        ['verification.completed', 'local activity'],
      ],
    );
    const created = events[0]!.event.data as VerificationEventData;
    assert.equal(created.verificationId, result.verificationId);
    assert.equal(created.stage, 'created');
  });
});
