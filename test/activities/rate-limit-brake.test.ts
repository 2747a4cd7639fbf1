import assert from 'node:assert/strict';
import { setImmediate as macrotask } from 'node:timers/promises';
import { RateLimitBrake } from '../../activities/rate-limit-brake.js';
import { RateLimitError } from '../../src/client/index.js';

/**
 * A brake on a clock that stands still, whose waits are recorded and let go at once: a call's turn is read from what it
 * was asked to wait, not from how long a busy machine took to run the timer.
 */
function recordingBrake(nowMs: () => number = () => 0): { brake: RateLimitBrake; waits: number[] } {
  const waits: number[] = [];
  const brake = new RateLimitBrake(nowMs, (ms) => Promise.resolve(waits.push(ms)));
  return { brake, waits };
}

/** Whether `promise` settles before the next turn of the event loop: with no timer on its way, it does. */
async function settlesAtOnce(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([promise.then(() => true), macrotask().then(() => false)]);
}

describe('the worker’s brake on a 429', () => {
  it('lets calls through at once until a 429', async () => {
    const { brake, waits } = recordingBrake();
    assert.equal(await settlesAtOnce(Promise.all([brake.pass(), brake.pass(), brake.pass()])), true);
    assert.deepEqual(waits, []);
  });

  it('after a 429, spaces calls to 85% of what the service answered over the last second', async () => {
    const { brake, waits } = recordingBrake();
    for (let i = 0; i < 20; i += 1) brake.answered();
    brake.rateLimited();
    // 20 answered: 17 a second, one every 58.8 ms (100% of the rate would be every 50 ms).
    assert.deepEqual(await Promise.all([0, 1, 2, 3].map(() => brake.pass())), [true, true, true, true]);
    const spacing = 1000 / 17;
    assert.deepEqual(
      waits.map((ms) => ms.toFixed(1)),
      [1, 2, 3, 4].map((turn) => (turn * spacing).toFixed(1)),
    );
  });

  it('waits its turns on the real clock by default', async () => {
    const brake = new RateLimitBrake();
    for (let i = 0; i < 20; i += 1) brake.answered();
    brake.rateLimited();
    assert.equal(await settlesAtOnce(brake.pass()), false, 'the first turn is a spacing away');
  });

  it('holds a call at most 1.5 s: one whose turn is further off goes back to the task queue at once', async () => {
    let now = 0;
    const { brake, waits } = recordingBrake(() => now);
    // 4 answered: 3.4 a second, one every 294 ms. Turns at 294, 588, ... 1470 ms are held; the sixth, at 1765, is not.
    for (let i = 0; i < 4; i += 1) brake.answered();
    brake.rateLimited();
    const passes = Array.from({ length: 6 }, () => brake.pass());
    assert.equal(await settlesAtOnce(passes[5]!), true, 'sent back without waiting');
    assert.equal(await passes[5], false);
    // A call sent back takes no turn: a turn later, the next call's is within 1.5 s again (1765 ms on the brake's clock).
    now = 300;
    passes.push(brake.pass());
    assert.deepEqual(await Promise.all([...passes.slice(0, 5), passes[6]]), [true, true, true, true, true, true]);
    // Each held call waited its turn, the last one 1,765 − 300 ms on the brake's clock.
    assert.deepEqual(
      waits.map((ms) => ms.toFixed(1)),
      ['294.1', '588.2', '882.4', '1176.5', '1470.6', '1464.7'],
    );
  });

  it('lets go once no 429 came for a while', async () => {
    let now = 0;
    const { brake, waits } = recordingBrake(() => now);
    brake.rateLimited();
    now = 1600;
    assert.equal(await settlesAtOnce(Promise.all([brake.pass(), brake.pass()])), true);
    assert.deepEqual(waits, []);
  });

  it('reads outcomes as the governor does: answers and 429s count, a cancellation or a bug does not', async () => {
    const { brake, waits } = recordingBrake();
    for (let i = 0; i < 10; i += 1) brake.record();
    // Counted as answers, these would make the spacing 11 ms instead of 118.
    for (let i = 0; i < 100; i += 1) brake.record(new Error('not the service'));
    brake.record(new RateLimitError({ status: 429, endpoint: 'GET /v1/payers/{payerId}' }, undefined));
    await brake.pass();
    assert.deepEqual(
      waits.map((ms) => Math.round(ms)),
      [118],
    );
  });
});
