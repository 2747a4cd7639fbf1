import assert from 'node:assert/strict';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { keepAhead } from '../../activities/events/emit.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import type { OutboundEvent, VerificationEventData } from '../../workflows/shared/event-catalogue.js';
import type { EmitActivities } from '../../workflows/shared/event-emitter.js';
import { verificationWorkflowId } from '../../workflows/shared/ids.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

/** Where an event was kept from: the creation's activity, or the workflow's local activity. */
interface Kept {
  event: OutboundEvent;
  from: 'activity' | 'local activity';
}

describe('the created event, kept by the creation (decision 62)', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  const kept: Kept[] = [];
  /** Workflow ids whose creation's keep fails, as a database that does not take it would, and the ids it was given. */
  const refused = new Set<string>();
  const refusedIds: string[] = [];

  before(async () => {
    const emit: EmitActivities = {
      emitEvent({ event }) {
        const from = Context.current().info.isLocal ? 'local activity' : 'activity';
        if (from === 'activity' && refused.has((event.data as VerificationEventData).workflowId)) {
          refusedIds.push(event.id);
          return Promise.reject(new Error('the outbox is unreachable'));
        }
        kept.push({ event, from });
        return Promise.resolve();
      },
    };
    h = await startWorkflowHarness(undefined, { emit });
  });
  after(async () => h?.stop());

  /** Starts a verification; `refuse`: its creation's keep fails. */
  async function verify(refuse = false): Promise<WorkflowHandle> {
    const client = testTemporal().client;
    const request = v2Intake();
    if (refuse) refused.add(verificationWorkflowId((request as { id: string }).id));
    const { workflowId } = await startVerification(client, request, { taskQueue: h.taskQueue, timing: FAST });
    return client.workflow.getHandle(workflowId);
  }
  /**
   * The verification's events once it closed: `created` kept from `createdFrom`, `completed` by a local activity, each
   * local activity recorded in history, and the new verification's id in `created`.
   */
  async function eventsOf(handle: WorkflowHandle, createdFrom: Kept['from']): Promise<OutboundEvent[]> {
    const result = (await handle.result()) as { verificationId: string };
    const history = await handle.fetchHistory();
    const locals = createdFrom === 'activity' ? 1 : 2;
    assert.equal(
      (history.events ?? []).filter((e) => e.markerRecordedEventAttributes).length,
      locals,
      'local activities',
    );
    const events = kept.filter((k) => (k.event.data as VerificationEventData).workflowId === handle.workflowId);
    assert.deepEqual(
      events.map((k) => [k.event.type, k.from]),
      [
        ['verification.created', createdFrom],
        ['verification.completed', 'local activity'],
      ],
    );
    const created = events[0]!.event;
    assert.equal((created.data as VerificationEventData).verificationId, result.verificationId);
    assert.equal((created.data as VerificationEventData).stage, 'created');
    return events.map((k) => k.event);
  }

  it('is kept by the creation activity with the new verification id, and costs the workflow no local activity', async () => {
    await eventsOf(await verify(), 'activity');
  });

  it('is kept by the workflow, under the same id, when the activity could not keep it', async () => {
    const [created] = await eventsOf(await verify(true), 'local activity');
    assert.deepEqual(refusedIds, [created!.id], 'the id the activity was given');
  });

  it('leaves the event to the workflow when the outbox takes longer than the timeout', async () => {
    const event = { id: 'evt_0', type: 'verification.created', data: { workflowId: 'w', stage: 'created' } };
    const hanging: EmitActivities = { emitEvent: () => new Promise(() => undefined) };
    assert.equal(await keepAhead(hanging, event as unknown as OutboundEvent, 50), false);
    const failing: EmitActivities = { emitEvent: () => Promise.reject(new Error('down')) };
    assert.equal(await keepAhead(failing, event as unknown as OutboundEvent, 50), false);
    const taking: EmitActivities = { emitEvent: () => Promise.resolve() };
    assert.equal(await keepAhead(taking, event as unknown as OutboundEvent, 50), true);
  });
});
