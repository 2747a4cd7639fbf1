import assert from 'node:assert/strict';
import { EndpointQueues } from '../../workflows/events/endpoint-queues.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';

const event = (n: number): OutboundEvent => ({
  id: `evt_${n}`,
  type: 'verification.created',
  timestamp: new Date(0).toISOString(),
  tenant: 'clinic',
  data: { workflowId: `verification-${n}`, stage: 'created' },
  links: { self: `/verifications/verification-${n}` },
});

describe("the dispatcher's endpoint queues", () => {
  it('tell deliveries under way that started within the drain from those under way for longer (retrying)', () => {
    const book = new EndpointQueues(2, 100);
    const types = ['verification.created'];
    book.update({
      asOf: 1,
      endpoints: [
        { id: 'ep_dead', events: types },
        { id: 'ep_live', events: types },
      ],
    });
    for (const n of [1, 2]) book.accept(event(n));
    // Both endpoints take both events at t = 1,000: each at its concurrency of two.
    const first = book.startable(1_000);
    assert.equal(first.length, 4);
    // The live endpoint answers; its next two start at t = 9,000, while the dead one's are still under way (retrying).
    for (const e of first.filter((e) => e.endpointId === 'ep_live')) book.finished(e);
    for (const n of [3, 4]) book.accept(event(n));
    const second = book.startable(9_000);
    assert.deepEqual(
      second.map((e) => e.endpointId),
      ['ep_live', 'ep_live'],
    );
    assert.equal(book.underWayCount(), 4);
    // Draining at t = 10,000 for 5 s: only the two started at 9,000 are worth waiting for.
    assert.deepEqual(book.startedSince(5_000), [9_000, 9_000]);
    for (const e of second) book.finished(e);
    assert.deepEqual(book.startedSince(5_000), []);
    // What is carried (the dead endpoint's, under way and queued) starts afresh in the next run: no start time with it.
    const { pending } = book.carry();
    assert.deepEqual(
      pending.map((p) => `${p.endpointId} ${p.event.id}`),
      ['ep_dead evt_1', 'ep_dead evt_2', 'ep_dead evt_3', 'ep_dead evt_4'],
    );
    assert.ok(pending.every((p) => !('startedAt' in p)));
  });

  it('share their bound among the endpoints: a full queue keeps further events for that endpoint alone', () => {
    const book = new EndpointQueues(1, 4);
    const types = ['verification.created'];
    book.update({
      asOf: 1,
      endpoints: [
        { id: 'ep_a', events: types },
        { id: 'ep_b', events: types },
      ],
    });
    // Each endpoint may hold 2 of the 4 queued.
    assert.deepEqual(book.accept(event(1)), []);
    assert.deepEqual(book.accept(event(2)), []);
    assert.deepEqual(book.accept(event(3)), ['ep_a', 'ep_b']);
    // One answers (its deliveries finish, its queue empties), the other never does.
    for (let i = 0; i < 2; i++) for (const e of book.startable(0)) if (e.endpointId === 'ep_a') book.finished(e);
    assert.deepEqual(book.accept(event(4)), []);
    assert.deepEqual(book.accept(event(5)), ['ep_b']);
    assert.deepEqual(
      book
        .carry()
        .pending.filter((p) => p.endpointId === 'ep_b')
        .map((p) => p.event.id),
      ['evt_1', 'evt_2', 'evt_4'],
    );
  });
});
