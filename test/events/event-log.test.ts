import assert from 'node:assert/strict';
import { EVENT_RETENTION_DAYS, EventLog } from '../../src/events/event-log.js';
import type { Store } from '../../src/store/database.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { testStore } from '../../testing/database.js';

const event = (id: string): OutboundEvent => ({
  id,
  type: 'verification.completed',
  timestamp: new Date().toISOString(),
  tenant: 'clinic-a',
  data: { workflowId: `verification-${id}`, stage: 'completed' },
  links: { self: `/verifications/verification-${id}` },
});

/** Events are kept for replay for the retention period, then purged (the events worker does it hourly). */
describe('event log retention', () => {
  let store: Store;
  before(async () => {
    store = await testStore();
  });
  after(() => store?.close());

  it(`keeps events for ${EVENT_RETENTION_DAYS} days, then deletes them`, async () => {
    const log = new EventLog(store);
    await log.keep(event('evt_old'));
    await log.keep(event('evt_new'));
    const day = 24 * 3600 * 1000;
    // As the worker would run it a day past the first one's retention: the other is a day younger.
    await store.db
      .updateTable('events')
      .set({ created_at: new Date(Date.now() - (EVENT_RETENTION_DAYS + 1) * day) })
      .where('id', '=', 'evt_old')
      .execute();
    assert.equal(await log.purge(), 1);
    assert.equal(await log.event('evt_old', 'clinic-a'), undefined);
    assert.ok(await log.event('evt_new', 'clinic-a'));
    assert.equal(await log.purge(), 0);
  });
});
