import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import { decodePriority, type Priority } from '@temporalio/common';
import type { FastifyInstance } from 'fastify';
import { validateSubmission } from '../../src/batches/prepare.js';
import { submitBatch } from '../../src/batches/submit.js';
import { IntakeValidationError, splitTenant, startVerification } from '../../src/temporal/start-verification.js';
import { batchItemWorkflowId, batchWorkflowId } from '../../workflows/batch/batch.js';
import {
  runAwaitingInputSignal,
  statusQuery,
  supplyRunInputUpdate,
} from '../../workflows/verification/verification.js';
import { firstCallPriority, lanePriority } from '../../workflows/shared/priority.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { batchIdFor, FAST_BATCH } from '../../testing/batches.js';
import { FAST, TEST_INTAKE_KEY, callerId, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { startIntakeApiHarness } from '../../testing/intake-api-harness.js';

/**
 * Priority lanes and tenants (docs/developing/traffic.md), read back from Temporal: the priority a workflow was started
 * with (its description and its WorkflowExecutionStarted event), which its workflow tasks and activities inherit, and
 * the priority recorded on the activities that override it. Mechanisms only, never timings.
 */
describe('priority lanes and tenants', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  let api: FastifyInstance;
  let stop: (() => Promise<void>) | undefined;
  const client = () => testTemporal().client;

  before(async () => {
    ({
      harness: h,
      api,
      stop,
    } = await startIntakeApiHarness({
      env: { ELIGIBILITY_TENANT_WEIGHTS: '{"clinic-heavy":2.5}' },
    }));
  });
  after(() => stop?.());

  const post = (payload: object) =>
    api.inject({ method: 'POST', url: '/verifications', headers: { 'x-api-key': TEST_INTAKE_KEY }, payload });

  /** A priority with its unset fields (proto3 zero values: 0 and '') as undefined, so tests compare what was set. */
  const given = (p: Priority | null | undefined): Priority => ({
    priorityKey: p?.priorityKey || undefined,
    fairnessKey: p?.fairnessKey || undefined,
    fairnessWeight: p?.fairnessWeight || undefined,
  });

  /** The priority as the workflow's description shows it and as its WorkflowExecutionStarted event recorded it. */
  async function startedPriority(workflowId: string): Promise<{ described: Priority; recorded: Priority }> {
    const wf = client().workflow.getHandle(workflowId);
    const described = given((await wf.describe()).priority);
    const history = await wf.fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    assert.ok(started, 'the first event is WorkflowExecutionStarted');
    return { described, recorded: given(decodePriority(started.priority)) };
  }

  /** The priority each activity type was scheduled with (its first scheduling), as its history recorded it. */
  async function scheduledPriorities(wf: WorkflowHandle): Promise<Map<string | null | undefined, Priority>> {
    const events = (await wf.fetchHistory()).events ?? [];
    const scheduled = new Map<string | null | undefined, Priority>();
    for (const e of events) {
      const a = e.activityTaskScheduledEventAttributes;
      if (a && !scheduled.has(a.activityType?.name))
        scheduled.set(a.activityType?.name, given(decodePriority(a.priority)));
    }
    return scheduled;
  }

  it('starts an intake API request in the front-desk lane, its tenant the fairness key', async () => {
    const response = await post({ ...v2Intake({ id: callerId('desk') }), tenant: 'clinic-7' });
    assert.equal(response.statusCode, 202);
    const { workflowId } = response.json<{ workflowId: string }>();
    const { described, recorded } = await startedPriority(workflowId);
    assert.deepEqual(recorded, { priorityKey: 2, fairnessKey: 'clinic-7', fairnessWeight: undefined });
    assert.deepEqual(described, recorded);
    const wf = client().workflow.getHandle(workflowId);
    assert.equal((await wf.describe()).typedSearchAttributes.get(Tenant), 'clinic-7');
    await wf.result();
  });

  it('gives a tenant its configured weight, and the default weight to a tenant not configured', async () => {
    const heavy = await post({ ...v2Intake({ id: callerId('heavy') }), tenant: 'clinic-heavy' });
    const plain = await post(v2Intake({ id: callerId('plain') }));
    const heavyPriority = await startedPriority(heavy.json<{ workflowId: string }>().workflowId);
    const plainPriority = await startedPriority(plain.json<{ workflowId: string }>().workflowId);
    assert.equal(heavyPriority.recorded.fairnessWeight, 2.5);
    assert.equal(heavyPriority.recorded.fairnessKey, 'clinic-heavy');
    assert.deepEqual(plainPriority.recorded, { priorityKey: 2, fairnessKey: undefined, fairnessWeight: undefined });
  });

  it('splits the tenant off an intake body, which keeps every other field', () => {
    const request = v2Intake();
    assert.deepEqual(splitTenant({ ...request, tenant: 'clinic-7' }), { request, tenant: 'clinic-7' });
    assert.deepEqual(splitTenant(request), { request });
    assert.deepEqual(splitTenant('not an object'), { request: 'not an object' });
  });

  it('lowers the first call only in the bulk lane, where a workflow started without a lane also is', () => {
    assert.deepEqual(firstCallPriority(lanePriority('bulk', 'clinic-1')), { priorityKey: 4 });
    assert.deepEqual(firstCallPriority(undefined), { priorityKey: 4 });
    assert.deepEqual(firstCallPriority({ priorityKey: 0 }), { priorityKey: 4 });
    assert.equal(firstCallPriority(lanePriority('front-desk')), undefined);
    assert.equal(firstCallPriority(lanePriority('person')), undefined);
  });

  it('refuses a tenant that is not a short identifier, naming the field and never echoing the value', async () => {
    for (const tenant of ['Ada Lovelace 12/10/1985', '', 'x'.repeat(65), 42, { id: 'clinic' }]) {
      const response = await post({ ...v2Intake({ id: callerId('bad-tenant') }), tenant });
      assert.equal(response.statusCode, 400, `tenant ${JSON.stringify(tenant)} is refused`);
      const body = response.json<{ param: string; message: string }>();
      assert.equal(body.param, 'tenant');
      assert.doesNotMatch(body.message, /Ada|Lovelace|1985/);
    }
    await assert.rejects(
      startVerification(client(), v2Intake(), { taskQueue: h.taskQueue, tenant: 'Jane Doe' }),
      (err: unknown) => err instanceof IntakeValidationError && err.param === 'tenant' && !/Jane/.test(err.message),
    );
  });

  it('starts the items of a batch, and the batch itself, in the bulk lane under the batch tenant', async () => {
    const batchId = batchIdFor('lanes');
    const { valid, invalid } = validateSubmission([{ row: 1, request: v2Intake({ id: undefined }) }], {
      sandbox: false,
    });
    await submitBatch(
      client(),
      { batchId, valid, invalid, options: { retryWindowSeconds: 3600, tenant: 'clinic-9', timing: FAST } },
      { taskQueue: h.taskQueue, timing: FAST_BATCH },
    );
    const itemId = batchItemWorkflowId(batchId, 1, undefined, 0);
    const item = await eventually(() => startedPriority(itemId).catch(() => undefined), 15_000, 'the item to start');
    assert.deepEqual(item.recorded, { priorityKey: 3, fairnessKey: 'clinic-9', fairnessWeight: undefined });
    assert.deepEqual(item.described, item.recorded);
    const batch = await startedPriority(batchWorkflowId(batchId));
    assert.deepEqual(batch.recorded, { priorityKey: 3, fairnessKey: 'clinic-9', fairnessWeight: undefined });
  });

  it('sends the first call of a bulk verification one key below its lane, so begun ones finish first', async () => {
    const { workflowId } = await startVerification(client(), v2Intake(), {
      taskQueue: h.taskQueue,
      lane: 'bulk',
      tenant: 'clinic-4',
      timing: FAST,
    });
    const wf: WorkflowHandle = client().workflow.getHandle(workflowId);
    await wf.result();
    const scheduled = await scheduledPriorities(wf);
    // Only the key: the tenant stays the fairness key of the call, inherited like the lane of the later calls.
    assert.deepEqual(scheduled.get('lookupPayer'), {
      priorityKey: 4,
      fairnessKey: undefined,
      fairnessWeight: undefined,
    });
    assert.deepEqual(scheduled.get('createVerificationV2'), {
      priorityKey: undefined,
      fairnessKey: undefined,
      fairnessWeight: undefined,
    });
    assert.equal((await startedPriority(workflowId)).recorded.priorityKey, 3);
  });

  it("sends a person's run input in the first lane, keeping the tenant; other calls inherit the workflow's lane", async () => {
    const { workflowId } = await startVerification(client(), v2Intake({ specialtyCode: 'ABA' }), {
      taskQueue: h.taskQueue,
      tenant: 'clinic-5',
      timing: { ...FAST, graceSeconds: 30 },
    });
    const wf: WorkflowHandle = client().workflow.getHandle(workflowId);
    const verificationId = await eventually(async () => (await wf.query(statusQuery)).verificationId);
    const [run] = await eventually(async () => {
      const runs = await h.sandbox.runs(verificationId);
      return runs.length > 0 ? runs : undefined;
    });
    const flowRunId = run!.flowRunId;
    await wf.signal(runAwaitingInputSignal, { flowRunId });
    await eventually(async () => ((await wf.query(statusQuery)).pendingRuns.length > 0 ? true : undefined));
    await wf.executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId, input: { authorizationNumber: 'A-1' } }] });
    await wf.result();

    const scheduled = await scheduledPriorities(wf);
    const byType = (type: string) => scheduled.get(type);
    // Only the priority key is overridden: the fairness key (the tenant) is inherited from the workflow.
    assert.deepEqual(byType('updateRun'), { priorityKey: 1, fairnessKey: undefined, fairnessWeight: undefined });
    // A front-desk verification's service calls name no priority: they inherit its lane and tenant.
    for (const type of ['lookupPayer', 'createVerificationV2']) {
      assert.deepEqual(byType(type), { priorityKey: undefined, fairnessKey: undefined, fairnessWeight: undefined });
    }
    assert.deepEqual((await startedPriority(workflowId)).recorded, {
      priorityKey: 2,
      fairnessKey: 'clinic-5',
      fairnessWeight: undefined,
    });
  });
});
