import assert from 'node:assert/strict';
import { takeChore, type Chore } from '../../workflows/events/chores.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';

const event = (n: number) => ({ id: `evt_${n}` }) as OutboundEvent;
const ids = (chore: Chore | undefined) =>
  chore && [chore.endpointId, chore.reason ?? '-', ...chore.events.map((e) => e.id)];

describe("a dispatcher's chores", () => {
  it('merge every waiting chore of the same endpoint and kind into one activity, keeping their order', () => {
    const chores: Chore[] = [
      { endpointId: 'a', events: [event(1)] },
      { endpointId: 'b', events: [event(2)] },
      { endpointId: 'a', events: [event(3)] },
      { endpointId: 'a', events: [event(4)], reason: 'gone' },
      { endpointId: 'a', events: [event(5)] },
    ];
    assert.deepEqual(ids(takeChore(chores)), ['a', '-', 'evt_1', 'evt_3', 'evt_5']);
    assert.deepEqual(ids(takeChore(chores)), ['b', '-', 'evt_2']);
    assert.deepEqual(ids(takeChore(chores)), ['a', 'gone', 'evt_4']);
    assert.equal(takeChore(chores), undefined);
  });

  it('keep one activity within 500 events', () => {
    const chores: Chore[] = Array.from({ length: 1200 }, (_, n) => ({ endpointId: 'a', events: [event(n)] }));
    const sizes: number[] = [];
    for (let chore = takeChore(chores); chore; chore = takeChore(chores)) sizes.push(chore.events.length);
    assert.deepEqual(sizes, [500, 500, 200]);
  });
});
