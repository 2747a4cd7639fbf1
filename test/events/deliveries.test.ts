import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { eventDispatcherWorkflow } from '../../workflows/events/index.js';
import { redeliverSignal } from '../../workflows/events/events.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { orderKey } from '../../workflows/shared/event-catalogue.js';
import { verificationWorkflowId } from '../../workflows/shared/ids.js';
import { callerId, v2Intake } from '../../testing/fixtures.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';
import { EventLog } from '../../src/events/event-log.js';
import { startEventsStack, type EventsStack } from './event-setup.js';
import { TestReceiver, verify, type Received } from './receivers.js';
import { verificationEvent } from './sample-events.js';

interface Created {
  endpoint: { id: string; status: string; disabledReason?: string };
  secret: string;
}

/**
 * Outbound events end to end (docs/developing/event-delivery.md): the intake API, verification and batch workflows on a
 * real Temporal dev server, delivery from the outbox in PostgreSQL, and real HTTP receivers; every delivery verified with
 * `standardwebhooks` as an integrator would.
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
  async function start(key: string): Promise<string> {
    const started = await stack.as(key, { method: 'POST', url: '/verifications', payload: v2Intake() });
    assert.equal(started.statusCode, 202, started.body);
    return started.json<{ workflowId: string }>().workflowId;
  }
  /** A row of the outbox as another worker left it: `state`, claimed by it at `claimedAt` until `claimedUntil`. */
  async function leftRow(
    event: OutboundEvent,
    endpointId: string,
    row: { state: 'queued' | 'pending'; claimedAt: string; claimedUntil: string | null },
  ) {
    await new EventLog(stack.store).keep(event);
    await sql`insert into event_outbox (event_id, endpoint_id, order_key, state, owner, claimed_at, claimed_until)
      values (${event.id}, ${endpointId}, ${orderKey(event)}, ${row.state}, 'a-worker-that-died',
        now() + ${row.claimedAt}::interval, ${row.claimedUntil === null ? null : sql`now() + ${row.claimedUntil}::interval`})
    `.execute(stack.store.db);
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

  it("delivers from the outbox: nothing in the verification's history but a local activity per event, nothing left in the outbox", async () => {
    const { receiver: r, url } = await receiver();
    const { endpoint } = await subscribe(stack.keys.e!, url);
    const workflowId = await start(stack.keys.e!);
    await arrived(r, workflowId, 2);
    // The delivery can arrive before the task that ran its local activity has completed: the history once it closed.
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

  it("delivers what a dead worker had claimed once its claim lapses, and the verification's later events follow it in order", async () => {
    const { receiver: r, url } = await receiver();
    const { endpoint } = await subscribe(stack.keys.e!, url);
    const workflowId = verificationWorkflowId(callerId('v2'));
    const first = verificationEvent(stack.tenants.e!, workflowId, 'verification.created');
    // A worker claimed the first for 2 s more and died; this process emits the second.
    await leftRow(first, endpoint.id, { state: 'queued', claimedAt: '-1 second', claimedUntil: '2 seconds' });
    const emittedAt = Date.now();
    await stack.emit(verificationEvent(stack.tenants.e!, workflowId, 'verification.completed'));
    const got = await arrived(r, workflowId, 2);
    assert.deepEqual(types(got), ['verification.created', 'verification.completed']);
    assert.equal(got[0]!.event.id, first.id);
    assert.ok(got[0]!.at - emittedAt >= 1_500, `held behind the claim: ${got[0]!.at - emittedAt} ms`);
  });

  it("takes over an earlier version's row its worker left (pending for over a minute)", async () => {
    const { receiver: r, url } = await receiver();
    const { endpoint } = await subscribe(stack.keys.e!, url);
    const workflowId = verificationWorkflowId(callerId('v2'));
    const left = verificationEvent(stack.tenants.e!, workflowId, 'verification.created');
    const other = verificationWorkflowId(callerId('v2'));
    const fresh = verificationEvent(stack.tenants.e!, other, 'verification.created');
    await leftRow(left, endpoint.id, { state: 'pending', claimedAt: '-2 minutes', claimedUntil: null });
    // Still its worker's (a first attempt of an earlier version's under way): left alone.
    await leftRow(fresh, endpoint.id, { state: 'pending', claimedAt: '0 seconds', claimedUntil: null });
    await arrived(r, workflowId, 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(r.about(other).length, 0);
  });

  it('gets an endpoint that answers again its waiting retries at once, not at their next retry', async () => {
    const { receiver: r, url } = await receiver();
    const { endpoint } = await subscribe(stack.keys.e!, url);
    const waiting = verificationWorkflowId(callerId('v2'));
    const retrying = verificationEvent(stack.tenants.e!, waiting, 'verification.created');
    await new EventLog(stack.store).keep(retrying);
    // Failed three times while the endpoint was down; its next retry an hour away.
    await sql`insert into event_outbox (event_id, endpoint_id, order_key, state, owner, attempts, next_attempt_at)
      values (${retrying.id}, ${endpoint.id}, ${waiting}, 'queued', '', 3, now() + interval '1 hour')
    `.execute(stack.store.db);
    const fresh = verificationWorkflowId(callerId('v2'));
    await stack.emit(verificationEvent(stack.tenants.e!, fresh, 'verification.created'));
    await arrived(r, fresh, 1);
    await arrived(r, waiting, 1, 5_000);
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

  it("hands what an earlier version's dispatcher carried and is signalled over to the outbox, and ends", async () => {
    const { receiver: r, url } = await receiver();
    const { endpoint } = await subscribe(stack.keys.d!, url);
    const tenant = stack.tenants.d!;
    const [carried, signalled] = [verificationWorkflowId(callerId('v2')), verificationWorkflowId(callerId('v2'))];
    const retrying = verificationEvent(tenant, carried, 'verification.created');
    const { client } = testTemporal();
    // As an earlier version's dispatcher continues as new onto this one: a delivery it was retrying for a minute.
    const handle = await client.workflow.start(eventDispatcherWorkflow, {
      workflowId: `events-${tenant}`,
      taskQueue: stack.eventsQueue,
      args: [
        {
          tenant,
          carried: { pending: [{ endpointId: endpoint.id, event: retrying, firstAttemptAt: Date.now() - 60_000 }] },
        },
      ],
    });
    // An earlier version's worker hands it a failed first attempt.
    await handle.signal(redeliverSignal, {
      endpointId: endpoint.id,
      events: [verificationEvent(tenant, signalled, 'verification.created')],
      handedOver: true,
    });
    await arrived(r, carried, 1);
    await arrived(r, signalled, 1);
    await handle.result();
    await recordHistory('event-dispatcher', handle);
  });
});
