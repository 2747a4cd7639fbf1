import assert from 'node:assert/strict';
import { discoveryEvent, parseDelivery, runEvent, type Delivery } from '../../apps/receiver/parse-delivery.js';

const parse = (body: unknown): Delivery => {
  const parsed = parseDelivery(Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)));
  assert.ok(parsed.ok, 'parses');
  return parsed.value;
};

describe('webhook parseDelivery', () => {
  it('reads the sandbox envelope {id, type, created, data}', () => {
    const d = parse({
      id: 'evt_1',
      type: 'sandbox.run.pending',
      data: { flowRunId: 'r-1', verificationId: 'v-1', id: 'c-1' },
    });
    assert.equal(d.eventId, 'evt_1');
    assert.equal(d.type, 'sandbox.run.pending');
    assert.deepEqual(runEvent(d), { ok: true, value: { flowRunId: 'r-1', verificationId: 'v-1', callerId: 'c-1' } });
  });

  it('reads `event` for the type, and flat bodies whose `id` is the event id', () => {
    const d = parse({ event: 'sandbox.discovery.updated', id: 'evt_2', discovery_id: 'disc-9' });
    assert.equal(d.type, 'sandbox.discovery.updated');
    assert.equal(d.eventId, 'evt_2');
    assert.deepEqual(discoveryEvent(d), { ok: true, value: { discoveryId: 'disc-9' } });
    assert.deepEqual(runEvent(parse({ type: 't', id: 'evt_3', flowRunId: 'r-2' })), {
      ok: true,
      value: { flowRunId: 'r-2' },
    });
  });

  it('identifies a body without an event id by a hash of its bytes', () => {
    const a = parse('{"type":"x","data":{}}');
    const b = parse('{"type":"x","data":{}}');
    const c = parse('{"type":"x", "data":{}}');
    assert.match(a.eventId, /^sha256:[0-9a-f]{64}$/);
    assert.equal(a.eventId, b.eventId);
    assert.notEqual(a.eventId, c.eventId);
  });

  it('replaces an event id over 200 characters by its hash: ids travel in signals and stay in workflow state', () => {
    const long = 'e'.repeat(201);
    const a = parse({ id: long, type: 'x', data: {} });
    const b = parse({ id: long, type: 'x', data: { other: true } });
    assert.match(a.eventId, /^sha256:[0-9a-f]{64}$/);
    assert.equal(a.eventId, b.eventId, 'the same event id, the same hash');
    assert.equal(parse({ id: 'e'.repeat(200), type: 'x', data: {} }).eventId, 'e'.repeat(200));
  });

  it('refuses what is not a JSON object, naming the body', () => {
    for (const raw of ['', '{"type":', '[]', '"text"', 'null']) {
      assert.deepEqual(parseDelivery(Buffer.from(raw)), { ok: false, param: 'body' }, raw);
    }
  });

  it('refuses a missing or unsafe id instead of putting it into a query', () => {
    assert.deepEqual(discoveryEvent(parse({ type: 't', data: {} })), { ok: false, param: 'data.discoveryId' });
    assert.deepEqual(discoveryEvent(parse({ type: 't', data: { discoveryId: 'x" OR WorkflowId != "' } })), {
      ok: false,
      param: 'data.discoveryId',
    });
    assert.deepEqual(runEvent(parse({ type: 't', data: { flowRunId: 'r', verificationId: 'a b' } })), {
      ok: false,
      param: 'data.verificationId',
    });
  });

  it('carries what a run asks for when the event says so, and drops a malformed request without refusing the event', () => {
    const requestedInput = { fields: ['authorizationNumber'], description: 'The prior authorization number' };
    const event = (extra: Record<string, unknown>) =>
      runEvent(parse({ id: 'e', type: 'sandbox.run.pending', data: { flowRunId: 'r-9', ...extra } }));
    assert.deepEqual(event({ requestedInput }), { ok: true, value: { flowRunId: 'r-9', requested: requestedInput } });
    for (const malformed of [{ fields: 'authorizationNumber' }, { fields: ['a b'] }, 'text', { description: '' }, {}]) {
      assert.deepEqual(event({ requestedInput: malformed }), { ok: true, value: { flowRunId: 'r-9' } });
    }
  });
});
