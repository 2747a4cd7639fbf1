import assert from 'node:assert/strict';
import { EventDeduplicator } from '../../apps/receiver/dedupe.js';

describe('webhook EventDeduplicator', () => {
  let now = 0;
  const make = (maxEntries = 100) => new EventDeduplicator({ ttlMs: 1000, maxEntries, now: () => now });
  beforeEach(() => {
    now = 1_000_000;
  });

  it('runs the work once per event id', async () => {
    const dedupe = make();
    let runs = 0;
    const work = () => {
      runs++;
      return Promise.resolve();
    };
    assert.equal(await dedupe.run('evt_1', work), 'handled');
    assert.equal(await dedupe.run('evt_1', work), 'duplicate');
    assert.equal(runs, 1);
  });

  it('lets concurrent duplicates share the in-flight work and its outcome', async () => {
    const dedupe = make();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const work = async () => {
      runs++;
      await gate;
    };
    const all = Promise.all([dedupe.run('evt_1', work), dedupe.run('evt_1', work), dedupe.run('evt_1', work)]);
    release();
    assert.deepEqual(await all, ['handled', 'duplicate', 'duplicate']);
    assert.equal(runs, 1);
  });

  it('remembers nothing when the work fails, and fails the joined duplicates too', async () => {
    const dedupe = make();
    const failing = async () => {
      await Promise.resolve();
      throw new Error('Temporal unavailable');
    };
    const results = await Promise.allSettled([dedupe.run('evt_1', failing), dedupe.run('evt_1', failing)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal(dedupe.size, 0);
    assert.equal(await dedupe.run('evt_1', async () => {}), 'handled', 'the retry is handled');
  });

  it('forgets an event after its time to live', async () => {
    const dedupe = make();
    await dedupe.run('evt_1', async () => {});
    now += 999;
    assert.equal(await dedupe.run('evt_1', async () => {}), 'duplicate');
    now += 2;
    assert.equal(await dedupe.run('evt_1', async () => {}), 'handled');
  });

  it('keeps at most maxEntries ids, forgetting the oldest first', async () => {
    const dedupe = make(2);
    for (const id of ['a', 'b', 'c']) await dedupe.run(id, async () => {});
    assert.equal(dedupe.size, 2);
    assert.equal(await dedupe.run('c', async () => {}), 'duplicate');
    assert.equal(await dedupe.run('a', async () => {}), 'handled', 'the oldest was forgotten');
  });
});
