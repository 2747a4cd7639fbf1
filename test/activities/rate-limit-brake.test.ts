import assert from 'node:assert/strict';
import { RateLimitBrake } from '../../activities/rate-limit-brake.js';
import { RateLimitError } from '../../src/client/index.js';

describe('the worker’s brake on a 429', () => {
  it('lets calls through at once until a 429', async () => {
    const brake = new RateLimitBrake();
    const t0 = performance.now();
    await Promise.all([brake.pass(), brake.pass(), brake.pass()]);
    assert.ok(performance.now() - t0 < 50);
  });

  it('after a 429, spaces calls to 85% of what the service answered over the last second', async () => {
    const brake = new RateLimitBrake();
    for (let i = 0; i < 20; i += 1) brake.answered();
    brake.rateLimited();
    // 20 answered: 17 a second, one every 59 ms; the fourth call waits four spacings, 235 ms.
    const t0 = performance.now();
    const waited = await Promise.all(
      [0, 1, 2, 3].map(async () => {
        await brake.pass();
        return performance.now() - t0;
      }),
    );
    // A timer fires against the event loop's cached clock, a few ms early when the loop was busy as it was set; the
    // margin still tells 85% (235 ms) from 100% of the rate (200 ms).
    assert.ok(waited[0]! >= 50, `${waited[0]}`);
    assert.ok(waited[3]! >= 4 * 59 - 10, `${waited[3]}`);
  });

  it('holds a call at most 1.5 s: one whose turn is further off goes back to the task queue at once', async () => {
    let now = 0;
    const brake = new RateLimitBrake(() => now);
    // 4 answered: 3.4 a second, one every 294 ms. Turns at 294, 588, ... 1470 ms are held; the sixth, at 1765, is not.
    for (let i = 0; i < 4; i += 1) brake.answered();
    brake.rateLimited();
    const passes = Array.from({ length: 6 }, () => brake.pass());
    const t0 = performance.now();
    assert.equal(await passes[5], false);
    assert.ok(performance.now() - t0 < 50, 'sent back without waiting');
    // A call sent back takes no turn: a turn later, the next call's is within 1.5 s again (1765 ms on the brake's clock).
    now = 300;
    passes.push(brake.pass());
    // The brake's clock stands still while the held calls wait their turns in real time.
    assert.deepEqual(await Promise.all([...passes.slice(0, 5), passes[6]]), [true, true, true, true, true, true]);
  });

  it('lets go once no 429 came for a while', async () => {
    let now = 0;
    const brake = new RateLimitBrake(() => now);
    brake.rateLimited();
    now = 1600;
    const t0 = performance.now();
    assert.deepEqual(await Promise.all([brake.pass(), brake.pass()]), [true, true]);
    assert.ok(performance.now() - t0 < 50);
  });

  it('reads outcomes as the governor does: answers and 429s count, a cancellation or a bug does not', async () => {
    const brake = new RateLimitBrake(() => 0);
    for (let i = 0; i < 10; i += 1) brake.record();
    // Counted as answers, these would make the spacing 11 ms instead of 118.
    for (let i = 0; i < 100; i += 1) brake.record(new Error('not the service'));
    brake.record(new RateLimitError({ status: 429, endpoint: 'GET /v1/payers/{payerId}' }, undefined));
    const t0 = performance.now();
    await brake.pass();
    const waited = performance.now() - t0;
    assert.ok(waited >= 100 && waited < 400, `${waited}`);
  });
});
