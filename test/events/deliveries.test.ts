import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { workerSinks } from '../../workers/create-worker.js';
import { eventDispatcherWorkflow } from '../../workflows/events/index.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { dispatcherStatusQuery, endpointsSignal, eventSignal, redeliverSignal } from '../../workflows/events/events.js';
import { dispatcherShard, eventDispatcherId } from '../../workflows/events/events.js';
import { verificationWorkflowId } from '../../workflows/shared/ids.js';
import { callerId, v2Intake } from '../../testing/fixtures.js';
import { workflowBundle } from '../../testing/bundle.js';
import { testDataConverter } from '../../testing/codec.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';
import { EventOutbox } from '../../src/events/outbox.js';
import { startEventsStack, TEST_SWEEPER, type EventsStack } from './event-setup.js';
import { TestReceiver, verify, type Received } from './receivers.js';

interface Created {
  endpoint: { id: string; status: string; disabledReason?: string };
  secret: string;
}

/**
 * Outbound events end to end (docs/integrating/events.md): the intake API, a real Temporal dev server's dispatcher and
 * verification workflows, the events worker on its own queue, PostgreSQL, and real HTTP receivers; every delivery
 * verified with `standardwebhooks` as an integrator would.
 */
describe('outbound events: signed, ordered, retried deliveries', function () {
  this.timeout(90_000);
  let stack: EventsStack;
  const receivers: TestReceiver[] = [];

  before(async () => {
    stack = await startEventsStack();
  });
  after(async () => {
    for (const r of receivers) await r.stop();
    await stack?.stop();
  });

  async function receiver(): Promise<{ receiver: TestReceiver; url: string }> {
    const r = new TestReceiver();
    receivers.push(r);
    return { receiver: r, url: await r.start() };
  }
  async function subscribe(key: string, url: string, events = ['verification.created', 'verification.completed']) {
    const made = await stack.as(key, { method: 'POST', url: '/event-endpoints', payload: { url, events } });
    assert.equal(made.statusCode, 201, made.body);
    return made.json<Created>();
  }
  /** Starts a verification; with `shard`, one whose events go to that dispatcher of the tenant's. */
  async function start(key: string, shard?: number): Promise<string> {
    let id = callerId('v2');
    while (shard !== undefined && dispatcherShard(verificationWorkflowId(id)) !== shard) id = callerId('v2');
    const started = await stack.as(key, { method: 'POST', url: '/verifications', payload: v2Intake({ id }) });
    assert.equal(started.statusCode, 202, started.body);
    return started.json<{ workflowId: string }>().workflowId;
  }
  /** As a verification of an earlier version emits (decision 60 says why): its two events signalled to its dispatcher. */
  async function signalEvents(tenant: string, shard: number): Promise<string> {
    let workflowId = verificationWorkflowId(callerId('v2'));
    while (dispatcherShard(workflowId) !== shard) workflowId = verificationWorkflowId(callerId('v2'));
    const dispatcher = testTemporal().client.workflow.getHandle(eventDispatcherId(tenant, shard));
    const stages = [
      ['verification.created', 'created'],
      ['verification.completed', 'completed'],
    ] as const;
    for (const [type, stage] of stages) {
      await dispatcher.signal(eventSignal, {
        id: `evt_${randomUUID().replaceAll('-', '')}`,
        type,
        timestamp: new Date().toISOString(),
        tenant,
        data: { workflowId, stage },
        links: { self: `/verifications/${workflowId}` },
      });
    }
    return workflowId;
  }
  const types = (list: Received[]) => list.map((r) => r.event.type);
  const arrived = (r: TestReceiver, id: string, n: number, timeoutMs = 20_000) =>
    eventually(
      () => Promise.resolve(r.about(id).length >= n ? r.about(id) : undefined),
      timeoutMs,
      `${n} events of ${id}`,
    );

  it("delivers a verification's events in order, signed so that standardwebhooks verifies them, with no patient value", async () => {
    const { receiver: r, url } = await receiver();
    const { secret } = await subscribe(stack.keys.a!, url);
    assert.match(secret, /^whsec_/);
    const workflowId = await start(stack.keys.a!);
    const got = await arrived(r, workflowId, 2);
    assert.deepEqual(types(got), ['verification.created', 'verification.completed']);
    for (const delivery of got) {
      assert.ok(verify(delivery, secret));
      assert.equal(delivery.headers['webhook-id'], delivery.event.id);
      assert.match(delivery.event.id, /^evt_[0-9a-f]{32}$/);
      assert.equal((delivery.event as unknown as { tenant: string }).tenant, stack.tenants.a);
      assert.equal(
        (delivery.event as unknown as { links: { self: string } }).links.self,
        `/verifications/${workflowId}`,
      );
      // The identifiers are random and may hold any digits ('1985' inside a hex id is no birth year): taken out first.
      const event = delivery.event as unknown as { timestamp: string; tenant: string; links: { self: string } };
      const identifiers = [
        event.timestamp,
        event.tenant,
        event.links.self,
        delivery.event.id,
        ...['workflowId', 'verificationId', 'discoveryId', 'batchId'].map((key) => delivery.event.data[key]),
      ];
      const text = identifiers.reduce<string>(
        (body, id) => (typeof id === 'string' ? body.replaceAll(id, '') : body),
        delivery.body,
      );
      for (const patientValue of ['Ada', 'Lovelace', '12/10/1985', 'M1234567', '1985']) {
        assert.ok(!text.includes(patientValue), `${patientValue} in ${delivery.body}`);
      }
    }
    assert.equal(got[1]!.event.data.stage, 'completed');
    assert.ok(got[0]!.event.data.verificationId);
  });

  it('makes the first attempt from the worker that emitted the event: no signal, no dispatcher activity, nothing left in the outbox', async () => {
    const { receiver: r, url } = await receiver();
    const { endpoint } = await subscribe(stack.keys.e!, url);
    const workflowId = await start(stack.keys.e!);
    await arrived(r, workflowId, 2);
    // The attempt can arrive before the task that ran its local activity has completed: the history once it closed.
    const handle = testTemporal().client.workflow.getHandle(workflowId);
    await handle.result();
    const history = await handle.fetchHistory();
    const kinds = (history.events ?? []).map((e) => Object.keys(e).find((k) => k.endsWith('EventAttributes')));
    assert.equal(kinds.filter((k) => k === 'signalExternalWorkflowExecutionInitiatedEventAttributes').length, 0);
    // `created` and `completed`, each kept by a local activity of the workflow.
    assert.equal(kinds.filter((k) => k === 'markerRecordedEventAttributes').length, 2, 'a local activity per event');
    const rows = await eventually(async () => {
      const left = await stack.store.db
        .selectFrom('event_outbox')
        .select('event_id')
        .where('endpoint_id', '=', endpoint.id)
        .execute();
      return left.length === 0 ? left : undefined;
    });
    assert.deepEqual(rows, []);
    const log = await stack.as(stack.keys.e!, { method: 'GET', url: `/event-endpoints/${endpoint.id}/deliveries` });
    assert.deepEqual(
      log.json<{ deliveries: { attempt: number; status: string }[] }>().deliveries.map((d) => [d.attempt, d.status]),
      [
        [1, 'delivered'],
        [1, 'delivered'],
      ],
    );
  });

  it("hands a dead worker's events to the dispatcher once their grace is over, and the verification's later ones follow them in order", async () => {
    const { receiver: r, url } = await receiver();
    await subscribe(stack.keys.e!, url);
    const workflowId = verificationWorkflowId(callerId('v2'));
    const event = (type: 'verification.created' | 'verification.completed', stage: 'created' | 'completed') => ({
      id: `evt_${randomUUID().replaceAll('-', '')}`,
      type,
      timestamp: new Date().toISOString(),
      tenant: stack.tenants.e!,
      data: { workflowId, stage },
      links: { self: `/verifications/${workflowId}` },
    });
    // A worker queued the first and died before its attempt; this process emits the second.
    const dead = new EventOutbox(stack.store, stack.box, 'a-worker-that-died');
    const first = event('verification.created', 'created');
    assert.equal((await dead.enqueue(first)).targets[0]?.state, 'pending');
    const emittedAt = Date.now();
    await stack.emit(event('verification.completed', 'completed'));
    const got = await arrived(r, workflowId, 2, 20_000);
    assert.deepEqual(types(got), ['verification.created', 'verification.completed']);
    assert.equal(got[0]!.event.id, first.id);
    // Held behind the first until the sweeper took that over (3 s in this suite).
    assert.ok(got[1]!.at - emittedAt >= TEST_SWEEPER.graceMs - 1000, `${got[1]!.at - emittedAt} ms`);
  });

  it('delivers an event emitted again by a workflow task that ran twice (its worker killed) with the body it was kept with', async () => {
    const { receiver: r, url } = await receiver();
    await subscribe(stack.keys.e!, url);
    const workflowId = verificationWorkflowId(callerId('v2'));
    const event = {
      id: `evt_${randomUUID().replaceAll('-', '')}`,
      type: 'verification.created' as const,
      timestamp: new Date(Date.now() - 5_000).toISOString(),
      tenant: stack.tenants.e!,
      data: { workflowId, stage: 'created' as const },
      links: { self: `/verifications/${workflowId}` },
    };
    await stack.emit(event);
    await arrived(r, workflowId, 1);
    // The task again: the same id (uuid4 is seeded by the run), a later workflow time.
    await stack.emit({ ...event, timestamp: new Date().toISOString() });
    const got = await arrived(r, workflowId, 2);
    assert.deepEqual(
      got.map((d) => d.headers['webhook-id']),
      [event.id, event.id],
    );
    assert.equal(got[1]!.body, got[0]!.body);
    assert.equal(got[1]!.event.timestamp, event.timestamp);
  });

  it('redelivers after a 500 with the same webhook-id, and the deliveries log shows both attempts', async () => {
    const { receiver: r, url } = await receiver();
    r.behaviour = (_received, n) => (n === 1 ? 500 : 200);
    const { endpoint, secret } = await subscribe(stack.keys.a!, url, ['verification.completed']);
    const workflowId = await start(stack.keys.a!);
    const got = await arrived(r, workflowId, 2);
    assert.equal(got[0]!.headers['webhook-id'], got[1]!.headers['webhook-id']);
    verify(got[1]!, secret);
    const log = await stack.as(stack.keys.a!, { method: 'GET', url: `/event-endpoints/${endpoint.id}/deliveries` });
    assert.equal(log.statusCode, 200);
    const attempts = log.json<{ deliveries: { attempt: number; status: string; statusCode?: number }[] }>().deliveries;
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.status, a.statusCode]),
      [
        [2, 'delivered', 200],
        [1, 'failed', 500],
      ],
    );
  });

  it('disables an endpoint that answers 410 Gone, and shows why', async () => {
    const { receiver: r, url } = await receiver();
    r.behaviour = () => 410;
    const { endpoint } = await subscribe(stack.keys.a!, url, ['verification.created']);
    const workflowId = await start(stack.keys.a!);
    await arrived(r, workflowId, 1);
    const shown = await eventually(async () => {
      const got = await stack.as(stack.keys.a!, { method: 'GET', url: `/event-endpoints/${endpoint.id}` });
      const body = got.json<Created['endpoint']>();
      return body.status === 'disabled' ? body : undefined;
    });
    assert.equal(shown.disabledReason, 'gone');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(r.about(workflowId).length, 1, '410 is not retried');
  });

  it("a timing-out endpoint delays no other endpoint's deliveries, and is disabled once its window is over", async () => {
    const stuck = await receiver();
    stuck.receiver.behaviour = () => 'hang';
    const healthy = await receiver();
    const dead = await subscribe(stack.keys.c!, stuck.url);
    await subscribe(stack.keys.c!, healthy.url);
    const workflowId = await start(stack.keys.c!);
    const got = await arrived(healthy.receiver, workflowId, 2, 10_000);
    assert.deepEqual(types(got), ['verification.created', 'verification.completed']);
    // Meanwhile the stuck one has had its first event only (in order: the second waits for the first).
    assert.deepEqual(new Set(types(stuck.receiver.about(workflowId))), new Set(['verification.created']));
    const disabled = await eventually(
      async () => {
        const shown = await stack.as(stack.keys.c!, { method: 'GET', url: `/event-endpoints/${dead.endpoint.id}` });
        const body = shown.json<Created['endpoint']>();
        return body.status === 'disabled' ? body : undefined;
      },
      30_000,
      'the stuck endpoint disabled',
    );
    assert.equal(disabled.disabledReason, 'failing');
  });

  it('signs with both secrets during a rotation; each verifies alone', async () => {
    const { receiver: r, url } = await receiver();
    const { endpoint, secret: old } = await subscribe(stack.keys.a!, url, ['verification.completed']);
    const rotated = await stack.as(stack.keys.a!, {
      method: 'POST',
      url: `/event-endpoints/${endpoint.id}/rotate-secret`,
      payload: { graceSeconds: 3600 },
    });
    assert.equal(rotated.statusCode, 200);
    const { secret: fresh, endpoint: after } = rotated.json<
      Created & { endpoint: { previousSecretExpiresAt: string } }
    >();
    assert.notEqual(fresh, old);
    assert.ok(after.previousSecretExpiresAt);
    const workflowId = await start(stack.keys.a!);
    const [delivery] = await arrived(r, workflowId, 1);
    assert.equal(delivery!.headers['webhook-signature']!.split(' ').length, 2);
    assert.ok(verify(delivery!, fresh));
    assert.ok(verify(delivery!, old));
    const entries = await stack.audit.list({ limit: 100 });
    assert.ok(entries.some((e) => e.action === `event-endpoint.rotate:${endpoint.id}`));
  });

  it("keeps tenants apart: B cannot see or change A's endpoint, and B's events never reach A's", async () => {
    const { receiver: r, url } = await receiver();
    const { endpoint } = await subscribe(stack.keys.a!, url);
    for (const [method, path, payload] of [
      ['GET', `/event-endpoints/${endpoint.id}`, undefined],
      ['PATCH', `/event-endpoints/${endpoint.id}`, { disabled: true }],
      ['DELETE', `/event-endpoints/${endpoint.id}`, undefined],
      ['POST', `/event-endpoints/${endpoint.id}/rotate-secret`, {}],
      ['GET', `/event-endpoints/${endpoint.id}/deliveries`, undefined],
      ['POST', `/event-endpoints/${endpoint.id}/redeliver`, { failedSince: new Date(0).toISOString() }],
    ] as const) {
      const answer = await stack.as(stack.keys.b!, { method, url: path, ...(payload ? { payload } : {}) });
      assert.equal(answer.statusCode, 404, `${method} ${path}`);
    }
    const listed = await stack.as(stack.keys.b!, { method: 'GET', url: '/event-endpoints' });
    assert.ok(!listed.body.includes(endpoint.id));
    const other = await receiver();
    await subscribe(stack.keys.b!, other.url);
    const workflowId = await start(stack.keys.b!);
    await arrived(other.receiver, workflowId, 2);
    assert.equal(r.about(workflowId).length, 0);
  });

  it('redelivers one event by id, and every unacknowledged one since a time', async () => {
    const { receiver: r, url } = await receiver();
    r.behaviour = () => 410;
    const { endpoint, secret } = await subscribe(stack.keys.a!, url);
    const since = new Date(Date.now() - 1000).toISOString();
    const workflowId = await start(stack.keys.a!);
    await arrived(r, workflowId, 1);
    await eventually(async () => {
      const got = await stack.as(stack.keys.a!, { method: 'GET', url: `/event-endpoints/${endpoint.id}` });
      return got.json<Created['endpoint']>().status === 'disabled' ? true : undefined;
    });
    // Its later events, emitted while the endpoint is disabled, are not for it: re-enabled only once there are none.
    await testTemporal().client.workflow.getHandle(workflowId).result();
    r.behaviour = () => 200;
    const enabled = await stack.as(stack.keys.a!, {
      method: 'PATCH',
      url: `/event-endpoints/${endpoint.id}`,
      payload: { disabled: false },
    });
    assert.equal(enabled.json<Created['endpoint']>().status, 'active');
    const firstId = r.about(workflowId)[0]!.event.id;
    // Events while it was disabled were never meant for it; the one it refused is the one not acknowledged.
    const all = await stack.as(stack.keys.a!, {
      method: 'POST',
      url: `/event-endpoints/${endpoint.id}/redeliver`,
      payload: { failedSince: since },
    });
    assert.equal(all.statusCode, 202);
    assert.deepEqual(all.json(), { queued: 1 });
    const again = await arrived(r, workflowId, 2);
    assert.equal(again[1]!.event.id, firstId);
    // Read back from the database (whose jsonb orders keys its own way), sent as the same bytes as the first attempt.
    assert.equal(again[1]!.body, again[0]!.body);
    verify(again[1]!, secret);
    const one = await stack.as(stack.keys.a!, {
      method: 'POST',
      url: `/event-endpoints/${endpoint.id}/redeliver`,
      payload: { eventId: firstId },
    });
    assert.equal(one.statusCode, 202);
    assert.deepEqual(one.json(), { queued: 1 });
    const third = await arrived(r, workflowId, 3);
    assert.equal(third[2]!.headers['webhook-id'], firstId);
    const none = await stack.as(stack.keys.a!, {
      method: 'POST',
      url: `/event-endpoints/${endpoint.id}/redeliver`,
      payload: { failedSince: since },
    });
    assert.deepEqual(none.json(), { queued: 0 });
  });

  it("delivers a batch's batch.settled and batch.finished with its counts", async () => {
    const { receiver: r, url } = await receiver();
    await subscribe(stack.keys.a!, url, ['batch.settled', 'batch.finished']);
    const batchId = `events-${randomUUID().slice(0, 8)}`;
    const submitted = await stack.as(stack.keys.a!, {
      method: 'POST',
      url: '/batches',
      payload: { batchId, items: [v2Intake(), v2Intake()] },
    });
    assert.equal(submitted.statusCode, 202, submitted.body);
    const got = await arrived(r, batchId, 2, 40_000);
    assert.deepEqual(types(got), ['batch.settled', 'batch.finished']);
    const counts = got[1]!.event.data.counts as { items: number; outcomes: Record<string, number> };
    assert.equal(counts.items, 2);
    assert.equal(counts.outcomes.completed, 2);
  });

  it('answers 400 for a URL that is not http(s) or an unknown event type', async () => {
    for (const payload of [
      { url: 'ftp://example.com/x', events: ['verification.created'] },
      { url: 'https://user:pw@example.com/x', events: ['verification.created'] },
      { url: 'https://example.com/x', events: ['verification.unknown'] },
      { url: 'https://example.com/x', events: [] },
    ]) {
      const answer = await stack.as(stack.keys.a!, { method: 'POST', url: '/event-endpoints', payload });
      assert.equal(answer.statusCode, 400, JSON.stringify(payload));
    }
  });

  it('makes the first attempts of deliveries that start together in one activity; one that fails goes on alone', async () => {
    const { receiver: r, url } = await receiver();
    const { endpoint, secret } = await subscribe(stack.keys.e!, url);
    const tenant = stack.tenants.e!;
    const { client } = testTemporal();
    // The tenant's first dispatcher, again with 2 deliveries per endpoint at once (an eighth of 16).
    const workflowId = eventDispatcherId(tenant);
    await client.workflow.getHandle(workflowId).terminate('replaced by one with 2 at once');
    const handle = await client.workflow.start(eventDispatcherWorkflow, {
      workflowId,
      taskQueue: stack.policy.taskQueue,
      args: [
        {
          tenant,
          policy: { ...stack.policy, concurrency: 16 },
          carried: {
            asOf: Date.now(),
            endpoints: [{ id: endpoint.id, events: ['verification.created'] }],
            pending: [],
          },
        },
      ],
    });
    const event = (n: number) => {
      const about = `verification-together-${n}-${randomUUID()}`;
      const made: OutboundEvent = {
        id: `evt_${randomUUID().replaceAll('-', '')}`,
        type: 'verification.created',
        timestamp: new Date().toISOString(),
        tenant,
        data: { workflowId: about, stage: 'created' },
        links: { self: `/verifications/${about}` },
      };
      return { about, ...made };
    };
    const [ok, failing] = [event(1), event(2)];
    let refused = 0;
    r.behaviour = (got) => (got.event.id === failing.id && refused++ === 0 ? 500 : 200);
    // One signal: both become startable in the same workflow task.
    await handle.signal(redeliverSignal, {
      endpointId: endpoint.id,
      events: [ok, failing].map(({ about: _, ...e }) => e),
    });
    await arrived(r, ok.about, 1);
    const twice = await arrived(r, failing.about, 2);
    assert.deepEqual(
      twice.map((d) => d.headers['webhook-id']),
      [failing.id, failing.id],
    );
    verify(twice[1]!, secret);
    const history = await handle.fetchHistory();
    const activities = (history.events ?? []).flatMap((e) =>
      e.activityTaskScheduledEventAttributes?.activityType?.name
        ? [e.activityTaskScheduledEventAttributes.activityType.name]
        : [],
    );
    assert.deepEqual(
      activities,
      ['deliverFirst', 'deliverEvent'],
      'one first attempt for both, then the failed one alone',
    );
    await handle.terminate('test over');
  });

  it("moves a dispatcher started on the verifications' queue (an earlier version's) to the events queue when it continues as new, with the configuration's policy", async () => {
    const { receiver: r, url } = await receiver();
    const { endpoint } = await subscribe(stack.keys.d!, url);
    const { client, nativeConnection, server } = testTemporal();
    // As an earlier version left it: the tenant's one dispatcher (the first of today's) running on another queue, polled
    // by a worker of its own.
    const workflowId = eventDispatcherId(stack.tenants.d!);
    await client.workflow.getHandle(workflowId).terminate('replaced by one on the old queue');
    const oldQueue = `old-${randomUUID()}`;
    const worker = await Worker.create({
      connection: nativeConnection,
      namespace: server.namespace,
      taskQueue: oldQueue,
      workflowBundle: await workflowBundle(),
      sinks: workerSinks(),
      dataConverter: testDataConverter(),
    });
    let firstRunId = '';
    await worker.runUntil(async () => {
      const first = await client.workflow.signalWithStart(eventDispatcherWorkflow, {
        workflowId,
        taskQueue: oldQueue,
        args: [{ tenant: stack.tenants.d!, policy: { ...stack.policy, continueAfterEvents: 30 } }],
        signal: endpointsSignal,
        signalArgs: [
          {
            asOf: Date.now(),
            endpoints: [{ id: endpoint.id, events: ['verification.created', 'verification.completed'] }],
            // The configuration's policy now, which the next run takes.
            policy: { ...stack.policy, continueAfterEvents: 30, concurrency: 24 },
          },
        ],
      });
      firstRunId = first.signaledRunId;
      // One verification's events after another's, as verifications spaced them: eight signals at once would land
      // on the continue-as-new's task, which the server fails and retries with a backoff that grows under load.
      for (let i = 0; i < 4; i++) await arrived(r, await signalEvents(stack.tenants.d!, 0), 2, 30_000);
    });
    const handle = client.workflow.getHandle(workflowId);
    assert.equal((await handle.describe()).taskQueue, stack.policy.taskQueue);
    // Its share of the 24 per endpoint: each of the tenant's 8 dispatchers delivers 3 at once.
    assert.equal((await handle.query(dispatcherStatusQuery)).concurrency, 3);
    // Another verification's events, delivered by the run on the events queue alone (the old queue's worker is gone).
    const after = await signalEvents(stack.tenants.d!, 0);
    assert.deepEqual(types(await arrived(r, after, 2)), ['verification.created', 'verification.completed']);
    // The last run that received events, delivered them and continued as new (the replay test replays it); the newest
    // may have only begun.
    let runId = firstRunId;
    let ended = client.workflow.getHandle(workflowId, runId);
    for (;;) {
      const run = client.workflow.getHandle(workflowId, runId);
      const last = (await run.fetchHistory()).events?.at(-1);
      const next = last?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
      if (!next) break;
      ended = run;
      runId = next;
    }
    await recordHistory('event-dispatcher', ended);
  });
});
