import assert from 'node:assert/strict';
import { type PaceRate, StartPace } from '../../activities/batch/start-pace.js';

/** A pace on a clock that only moves when the pace waits: every wait is recorded, none is real. */
function pacedAt(
  rates: { rps: number | undefined; slowStart?: boolean } | (() => Promise<PaceRate | undefined>),
  fallbackRps = 8,
) {
  let nowMs = 0;
  const waits: number[] = [];
  const pace = new StartPace({
    readRate:
      typeof rates === 'function'
        ? rates
        : () => Promise.resolve(rates.rps === undefined ? undefined : { rps: rates.rps, slowStart: rates.slowStart }),
    fallbackRps,
    now: () => nowMs,
    wait: (ms) => {
      waits.push(ms);
      nowMs += ms;
      return Promise.resolve();
    },
  });
  return { pace, waits, now: () => nowMs };
}

async function takeMany(pace: StartPace, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, () => pace.take()));
}

describe('the start pace of batches', () => {
  it('starts a burst at once, then a little faster than the service creates verifications at the governed rate', async () => {
    const rate = { rps: 40 as number | undefined };
    const { pace, waits, now } = pacedAt(rate);
    // 40 calls a second, two a verification, 1.25 ahead: 25 starts a second, a burst of two seconds of them.
    await takeMany(pace, 50);
    assert.equal(pace.startsPerSecond, 25);
    assert.deepEqual(waits, []);
    await takeMany(pace, 25);
    assert.ok(Math.abs(now() - 1000) < 1, `25 more starts took ${now()} ms of the clock, not a second`);
  });

  it('follows the rate as the governor moves it', async () => {
    const rate = { rps: 40 as number | undefined };
    const { pace, now } = pacedAt(rate);
    await takeMany(pace, 50 + 50);
    const at = now();
    rate.rps = 8;
    // The old rate stands until it is read again (within 2 s of the clock: 50 starts), then 5 starts a second.
    await takeMany(pace, 50 + 10);
    assert.equal(pace.startsPerSecond, 5);
    assert.ok(now() - at > 3500, `60 starts across the change took only ${now() - at} ms`);
  });

  it('fills a slow start’s probe and no more: it is not yet known that the service takes it', async () => {
    const rate = { rps: 64 as number | undefined, slowStart: true };
    const { pace } = pacedAt(rate);
    await takeMany(pace, 1);
    assert.equal(pace.startsPerSecond, 32);
    // A rate the governor settled on after a 429 is led by a quarter, as any.
    rate.slowStart = false;
    rate.rps = 40;
    // Read again within 2 s of the clock: the burst of 64, then 32 a second.
    await takeMany(pace, 150);
    assert.equal(pace.startsPerSecond, 25);
  });

  it('holds starts while the queue holds more than 10 s of calls at its rate, and resumes at the pace', async () => {
    // 401 calls wait at the first read; the queue has drained to 400 by the next, 2 s later.
    const backlogs = [401, 400];
    const { pace, waits, now } = pacedAt(() => Promise.resolve({ rps: 40, backlog: backlogs.shift() ?? 0 }));
    await takeMany(pace, 1 + 24);
    assert.equal(waits[0], 2000);
    // No burst after a hold: 25 starts a second from there.
    assert.ok(Math.abs(now() - 3000) < 1, `25 starts after the hold ended at ${now()} ms of the clock, not 3000`);
  });

  it('in a slow start, holds from 4 s of the probe’s calls waiting: the calls may not reach the probe', async () => {
    const firstWait = async (slowStart: boolean) => {
      const backlogs = [257, 0];
      const { pace, waits } = pacedAt(() => Promise.resolve({ rps: 64, slowStart, backlog: backlogs.shift() ?? 0 }));
      await pace.take();
      return waits[0];
    };
    assert.equal(await firstWait(true), 2000);
    assert.equal(await firstWait(false), undefined);
  });

  it('paces at the fallback rate while the queue has no rate set, and when it cannot be read', async () => {
    const unset = pacedAt({ rps: undefined }, 8);
    await takeMany(unset.pace, 16 + 5);
    assert.equal(unset.pace.startsPerSecond, 5);
    assert.ok(Math.abs(unset.now() - 1000) < 1);

    const unreadable = pacedAt(() => Promise.reject(new Error('Temporal unavailable')), 8);
    await takeMany(unreadable.pace, 16 + 5);
    assert.equal(unreadable.pace.startsPerSecond, 5);
  });

  it('serves starts in the order they asked', async () => {
    const { pace } = pacedAt({ rps: 2 });
    const order: number[] = [];
    await Promise.all(Array.from({ length: 30 }, (_, i) => pace.take().then(() => order.push(i))));
    assert.deepEqual(
      order,
      Array.from({ length: 30 }, (_, i) => i),
    );
  });

  it('shares the starts between tenants by weight, as the queue shares its dispatch', async () => {
    const { pace } = pacedAt({ rps: 2 });
    const served: string[] = [];
    const asks = (tenant: string, weight: number, count: number) =>
      Array.from({ length: count }, () => pace.take(tenant, weight).then(() => served.push(tenant)));
    // The big clinic asked first, for far more; the small one weighs 3.
    await Promise.all([...asks('big', 1, 60), ...asks('small', 3, 30)]);
    const firstForty = served.slice(0, 40);
    const small = firstForty.filter((t) => t === 'small').length;
    assert.ok(small >= 28 && small <= 32, `the small clinic had ${small} of the first 40 starts, not 3 in 4`);
    assert.equal(served.length, 90);
  });

  it('gives a tenant no credit for the time it was not waiting', async () => {
    const { pace } = pacedAt({ rps: 2 });
    const served: string[] = [];
    const asks = (tenant: string, count: number) =>
      Array.from({ length: count }, () => pace.take(tenant).then(() => served.push(tenant)));
    await Promise.all(asks('a', 20));
    await Promise.all([...asks('a', 20), ...asks('b', 20)]);
    const alternating = served.slice(20, 30);
    assert.equal(alternating.filter((t) => t === 'b').length, 5, alternating.join(' '));
  });
});
