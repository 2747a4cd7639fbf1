import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { EventOutbox } from '../../src/events/delivery/outbox.js';
import { EventEndpoints } from '../../src/events/endpoints.js';
import { SecretBox } from '../../src/events/secret-box.js';
import type { Store } from '../../src/store/database.js';
import { testCodecKeys } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { verificationEvent } from './sample-events.js';

const tenant = 'tenant-claims';
const event = (workflowId: string, type?: 'verification.completed') => verificationEvent(tenant, workflowId, type);

// The outbox's claims, on a database of their own (no deliverer here): what one claim takes, and what it leaves.
describe("the outbox's claims", function () {
  let store: Store;
  let outbox: EventOutbox;
  let endpoints: EventEndpoints;
  const claim = (limit: number) => outbox.claim('test', { limit, concurrency: 2, leaseMs: 60_000 });

  before(async () => {
    store = await testStore();
    const box = new SecretBox(testCodecKeys());
    outbox = new EventOutbox(store, box);
    endpoints = new EventEndpoints(store, box);
  });
  after(() => store?.close());

  const endpoint = async () =>
    (
      await endpoints.create({
        tenant,
        url: `https://${randomUUID().slice(0, 8)}.example/`,
        events: ['verification.created', 'verification.completed'],
      })
    ).endpoint.id;

  it("takes each endpoint's due rows up to its slots: a dead endpoint's older backlog never crowds out another", async () => {
    const dead = await endpoint();
    for (let i = 0; i < 20; i++) await outbox.enqueue(event(`verification-dead-${i}`));
    await endpoints.disable(dead, 'disabled');
    const healthy = await endpoint();
    await endpoints.update(dead, null, { disabled: false });
    // The healthy endpoint's one row, behind the dead one's 20 (and its own copy of it).
    await outbox.enqueue(event('verification-late'));
    const taken = await claim(4);
    const byEndpoint = (id: string) => taken.filter((d) => d.endpointId === id).length;
    assert.equal(byEndpoint(dead), 2, "the dead endpoint's two slots");
    assert.equal(byEndpoint(healthy), 1, "the healthy one's row, though 20 of the dead one's are older");
    // Its slots full, neither endpoint gets more until a claim is settled.
    assert.deepEqual(await claim(10), []);
  });

  it("takes one verification's rows one at a time, in order", async () => {
    const id = await endpoint();
    const [first, second] = [event('verification-ordered'), event('verification-ordered', 'verification.completed')];
    await outbox.enqueue(first);
    await outbox.enqueue(second);
    const [d] = (await claim(10)).filter((c) => c.endpointId === id);
    assert.equal(d?.event.id, first.id);
    assert.deepEqual(
      (await claim(10)).filter((c) => c.endpointId === id),
      [],
      'the second waits for the first',
    );
  });
});
