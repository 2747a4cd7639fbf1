import assert from 'node:assert/strict';
import { SeenEvents } from '../../workflows/verification/seen-events.js';

// A repeat inside the window asks patched(), which needs a workflow: test/webhook/replicas.test.ts covers it on a
// real worker. Here: what is remembered at all.
describe('the event ids a workflow remembers', () => {
  it('remembers the last 100 ids, forgetting the oldest first', () => {
    const seen = new SeenEvents();
    for (let i = 0; i <= 100; i += 1) assert.equal(seen.repeated(`evt_${i}`), false);
    assert.equal(seen.repeated('evt_0'), false, 'the 101st id pushed the first out');
  });

  it('never remembers a missing, empty, non-string or over-long id: such a signal always counts', () => {
    const seen = new SeenEvents();
    for (const id of [undefined, '', 42, 'x'.repeat(201)]) {
      assert.equal(seen.repeated(id), false);
      assert.equal(seen.repeated(id), false, String(id));
    }
  });
});
