import assert from 'node:assert/strict';
import {
  decideRate,
  DEFAULT_GOVERNOR_SETTINGS,
  governorObserve,
  initialGovernorState,
} from '../../activities/governor/aimd.js';
import type { GovernorState, OutcomeReport } from '../../workflows/governor/governor.js';

const settings = DEFAULT_GOVERNOR_SETTINGS;

/** One worker's report of `answered` calls and `rateLimited` refusals over one second. */
const second = (answered: number, rateLimited = 0): OutcomeReport => ({
  workerId: 'w',
  answered,
  failed: 0,
  rateLimited,
  retryAfterMs: 0,
  intervalMs: 1000,
  maxRps: null,
});

/** Reports every second, each filling the rate (or `calls(rate)`), from `state` at `nowMs`; the rates it went through. */
function run(state: GovernorState, nowMs: number, seconds: number, calls = (rps: number) => second(rps)) {
  const rates: number[] = [];
  for (let i = 1; i <= seconds; i += 1) {
    state = governorObserve(state, calls(state.rps), nowMs + i * 1000, settings);
    rates.push(state.rps);
  }
  return { state, rates, nowMs: nowMs + seconds * 1000 };
}

/** In slow start at 64, raised from 16 and then 32 (`extra` overrides), under `given` settings. */
const raisedTo64 = (extra: Partial<GovernorState> = {}, given = settings): GovernorState => ({
  ...initialGovernorState(null, given),
  rps: 64,
  raisedFrom: [16, 32],
  ...extra,
});

describe('the governor’s AIMD (defaults)', () => {
  it('decideRate starts from the ceiling or the initial rate, then reads the reports in order', () => {
    const first = decideRate({ state: undefined, maxRps: null, reports: [], nowMs: 0 });
    assert.equal(first.rps, settings.initialRps);
    assert.equal(decideRate({ state: undefined, maxRps: 12, reports: [], nowMs: 0 }).rps, 12);
    // Two reports at one instant: the first fills the rate for 2 s (a raise is due), the second is refused (a cut from
    // it).
    const filled = { ...second(16), intervalMs: 2000 };
    const after = decideRate({ state: first, maxRps: null, reports: [filled, second(15, 1)], nowMs: 2000 });
    assert.deepEqual([after.totals.raises, after.totals.cuts, after.limitedAtRps], [1, 1, 8]);
    // The settings a governor was started with override the defaults.
    const quick = decideRate({ state: undefined, maxRps: null, reports: [], nowMs: 0, settings: { initialRps: 3 } });
    assert.equal(quick.rps, 3);
  });

  it('starts low, holds it 2 s, then doubles every second while calls fill the rate, with no limit known', () => {
    const { rates } = run(initialGovernorState(null, settings), 0, 6);
    assert.equal(settings.initialRps, 8);
    assert.deepEqual(rates, [8, 16, 32, 64, 128, 256]);
  });

  it('a governor started long before the first calls counts its start rate from them, not from its start', () => {
    // Started with its worker (an empty report), then an hour without a call.
    let state = decideRate({ state: undefined, maxRps: null, reports: [second(0)], nowMs: 0 });
    const { rates } = run(state, 3_600_000, 3);
    assert.deepEqual(rates, [8, 16, 32]);
    // Nor does a step whose rate nobody asked for a while: it counts from its first call.
    state = {
      ...state,
      rps: 32,
      step: { sinceMs: 0, calls: 0 },
      lastRaiseMs: 0,
      totals: { ...state.totals, raises: 2 },
    };
    assert.equal(run(state, 3_600_000, 1).rates[0], 64);
  });

  it('refused in slow start, reads the limit from the calls the service took over the step, its bucket counted', () => {
    // Raised from 32 (held a second) to 64: a bucket of 40 and 40 a second take 107 calls in 1.67 s.
    let state = raisedTo64({ lastRaisedFromHeldMs: 1000, step: { sinceMs: 0, calls: 0 } });
    state = governorObserve(state, second(64), 1000, settings);
    state = governorObserve(state, { ...second(42, 1), intervalMs: 670 }, 1670, settings);
    assert.equal(state.limitedAtRps, 40.07);
    assert.equal(state.rps, 34.06);
  });

  it('refused at the start rate (R = 5 from 8), one cut reaches under the limit', () => {
    let state = decideRate({ state: undefined, maxRps: null, reports: [second(0)], nowMs: 0 });
    state = governorObserve(state, second(8), 1000, settings);
    // The service's bucket of 5 runs dry after 1.7 s at 8 a second.
    state = governorObserve(state, { ...second(5, 1), intervalMs: 700 }, 1700, settings);
    assert.equal(state.limitedAtRps, 5.19);
    assert.equal(state.rps, 4.41);
  });

  it('refused in slow start after a step of a second, the rate before it is not taken as proven', () => {
    // 16 held a second only: 32, refused at once, may have been hidden over the limit; 16 held 2 s is the floor.
    const state = raisedTo64({ lastRaisedFromHeldMs: 1000 });
    // Refused within a quarter of a second of the raise: too few calls taken to read more.
    const refused = { ...second(9, 1), intervalMs: 250 };
    assert.equal(governorObserve(state, refused, 1000, settings).limitedAtRps, 16);
  });

  it('refused in slow start, closes in on the rate before the last raise and probes above it at once', () => {
    let state = raisedTo64();
    // One refused of 60: the bucket hid for a while that the raise from 32 passed the limit.
    state = governorObserve(state, second(59, 1), 1000, settings);
    assert.equal(state.limitedAtRps, 32);
    assert.equal(state.rps, 27.2);
    // Held for 2 s; the first report after it takes a raise per second since the last (a quarter above the rate at
    // most), the next closes in all the way, and the probes start at once.
    const { rates } = run(state, 1000, 7);
    assert.deepEqual(rates, [27.2, 31.44, 32, 32.64, 33.95, 36.67, 42.54]);
  });

  it('refused while probing, closes in, stays there a while, then probes again, each stay twice the last', () => {
    let state: GovernorState = { ...initialGovernorState(null, settings), rps: 49.5, limitedAtRps: 38 };
    state = governorObserve({ ...state, raisedFrom: [40, 45] }, second(45, 1), 1000, settings);
    assert.equal(state.limitedAtRps, 40);
    const climbing = run(state, 1000, 3);
    assert.deepEqual(climbing.rates, [34, 39.3, 40]);
    // At the limit for probeAfterMs: no raise until then, then probe steps of 2% of it, each twice the last.
    const waiting = run(climbing.state, climbing.nowMs, settings.probeAfterMs / 1000);
    assert.ok(waiting.rates.every((rps) => rps === 40));
    const probing = run(waiting.state, waiting.nowMs, 3);
    assert.deepEqual(probing.rates, [40.8, 42.43, 45.82]);
    // Refused again at about the same limit: the next stay is twice as long.
    state = governorObserve(probing.state, second(45, 1), probing.nowMs + 1000, settings);
    assert.equal(state.stayMs, 2 * settings.probeAfterMs);
  });

  it('a 429 while probing takes the rate two raising reports back as the limit (reports a second apart)', () => {
    let state: GovernorState = { ...initialGovernorState(null, settings), rps: 49.5, limitedAtRps: 40 };
    state = { ...state, probes: 4, raisedFrom: [42.43, 45.82] };
    // A few refused (the bucket hid the step before): not a report of what the service serves.
    state = governorObserve(state, second(45, 1), 1000, settings);
    assert.equal(state.limitedAtRps, 42.43);
    assert.equal(state.rps, 36.07);
  });

  it('a 429 while probing takes the rate the last probe raised from when that rate held for seconds', () => {
    // At R = 5 reports come 8 s apart: back at the limit read (4.32), one report probes several steps, and the next
    // one more; the 429 then comes at 5.75, 4.96 having held for 8 s with no 429.
    const eightSeconds = (rps: number, rateLimited = 0): OutcomeReport => ({
      ...second(Math.round(rps * 8), rateLimited),
      intervalMs: 8000,
    });
    const probe = (given: typeof settings) => {
      let state: GovernorState = {
        ...initialGovernorState(null, given),
        rps: 4.32,
        limitedAtRps: 4.32,
        stayMs: given.probeAfterMs,
        lastChange: { atMs: 0, fromRps: 4.24, reason: 'calls served: closing in' },
        step: { sinceMs: 0, calls: 0 },
      };
      const rates: number[] = [];
      for (const atMs of [8000, 16_000, 24_000, 32_000]) {
        state = governorObserve(state, eightSeconds(state.rps), atMs, given);
        rates.push(state.rps);
      }
      return { rates, refused: governorObserve(state, eightSeconds(state.rps, 1), 32_500, given) };
    };
    const { rates, refused } = probe(settings);
    // The stay, then one report's probe of several steps, then one step more.
    assert.deepEqual(rates, [4.32, 4.32, 4.96, 5.75]);
    assert.equal(refused.limitedAtRps, 4.96);
  });

  it('a 429 while probing reads a step the calls never filled at the calls a second they reached', () => {
    // A worker short of CPU: its calls fill 0.85 and 0.83 of two probe steps, enough to raise, never the rate.
    const probe = (given: typeof settings) => {
      let state: GovernorState = {
        ...initialGovernorState(null, given),
        rps: 42.54,
        limitedAtRps: 32,
        probes: 4,
        raisedFrom: [33.95, 36.67],
        stayMs: 0,
        atLimitSinceMs: 0,
        lastChange: { atMs: 0, fromRps: 36.67, reason: 'calls served: probing above the last limit' },
        step: { sinceMs: 0, calls: 0 },
      };
      state = governorObserve(state, second(36), 1000, given);
      state = governorObserve(state, second(44), 2000, given);
      assert.equal(state.rps, 66.47);
      return governorObserve(state, second(50, 1), 2500, given).limitedAtRps;
    };
    // The service never saw 42.54 calls a second, only 36.
    assert.equal(probe(settings), 36);
  });

  it('refused again at the rate refused before, it takes the limit to be a little lower', () => {
    let state: GovernorState = { ...initialGovernorState(null, settings), rps: 43.58, limitedAtRps: 43.58 };
    state = governorObserve(state, second(43, 1), 1000, settings);
    assert.equal(state.limitedAtRps, 40.31);
    assert.equal(state.rps, 34.26);
  });

  it('refused again after seconds at a rate the calls filled, takes the limit to be what the service answered', () => {
    // R = 5 from the default 8: cut to 6.8 and held 2 s, during which the service answered 5 of each second's 7 calls.
    const cutTo68 = (step: GovernorState['step']): GovernorState => ({
      ...initialGovernorState(null, settings),
      rps: 6.8,
      limitedAtRps: 8,
      holdUntilMs: 2000,
      // Heard from at the cut: the step goes on from it.
      workers: { w: { rps: 8, servedRps: 6, atMs: 0 } },
      ...(step ? { step } : {}),
    });
    // Seven calls a second, `answered` of them answered.
    const refusedFor2s = (state: GovernorState, answered = 5) => {
      state = governorObserve(state, second(answered, 7 - answered), 1000, settings);
      return governorObserve(state, second(answered, 7 - answered), 2000, settings);
    };
    const served = refusedFor2s(cutTo68({ sinceMs: 0, calls: 0, answered: 0 }));
    assert.deepEqual([served.limitedAtRps, served.rps], [5, 4.25]);
    // One cut from there is under R = 5, where a little under the rate (6.29, then 5.82, 5.38) took three more.
    assert.ok(served.rps < 5);
    // A state kept before answers were counted is read as before: a little under the rate.
    assert.equal(refusedFor2s(cutTo68({ sinceMs: 0, calls: 0 })).limitedAtRps, 6.29);
    // Never more than halved in one cut, however few were answered.
    assert.equal(refusedFor2s(cutTo68({ sinceMs: 0, calls: 0, answered: 0 }), 1).limitedAtRps, 3.4);
  });

  it('refused again, a step the calls did not fill or shorter than 2 s is not read from its answers', () => {
    const at68 = (step: NonNullable<GovernorState['step']>): GovernorState => ({
      ...initialGovernorState(null, settings),
      rps: 6.8,
      limitedAtRps: 8,
      step,
    });
    // 3 s at 6.8 with 4 calls a second: the answers are the demand's, not the limit's.
    const unfilled = governorObserve(at68({ sinceMs: 0, calls: 8, answered: 8 }), second(3, 1), 3000, settings);
    assert.equal(unfilled.limitedAtRps, 6.29);
    // A second and a half: the service's bucket is still a large share of what it answered.
    const short = governorObserve(at68({ sinceMs: 0, calls: 4, answered: 3 }), second(5, 2), 1500, settings);
    assert.equal(short.limitedAtRps, 6.29);
  });

  it('a limit found low is left behind within seconds once probing finds no 429', () => {
    const state: GovernorState = { ...initialGovernorState(null, settings), rps: 10, limitedAtRps: 10 };
    const { rates } = run(state, 0, settings.probeAfterMs / 1000 + 12);
    assert.ok(rates.at(-1)! > 40, rates.join(' '));
  });

  it('many refusals at the limit (R lowered) cut to the share answered, but never below half the rate in one cut', () => {
    const at = (answered: number, refused: number) =>
      governorObserve(
        { ...initialGovernorState(null, settings), rps: 40, limitedAtRps: 40 },
        second(answered, refused),
        1000,
        settings,
      );
    assert.equal(at(30, 20).limitedAtRps, 24);
    assert.equal(at(2, 30).limitedAtRps, 20);
  });

  it('one 429 among a handful of calls is read as any 429, not as the share of the rate answered', () => {
    // At R = 5 from the default 8: one of the first two calls meets the service's bucket empty.
    const at = (given: typeof settings, answered: number, refused: number) =>
      governorObserve(
        { ...initialGovernorState(null, given), rps: 6.88, limitedAtRps: 8 },
        second(answered, refused),
        1000,
        given,
      );
    assert.equal(at(settings, 1, 1).limitedAtRps, 6.36);
    // From 10 calls, a share refused over a fifth is read as the share answered.
    assert.equal(at(settings, 5, 5).limitedAtRps, 3.44);
  });

  it('with a known limit, a 429 cuts from the rate itself, however many were refused', () => {
    const state = initialGovernorState(10, settings);
    const cut = governorObserve(state, { ...second(5, 5), maxRps: 10 }, 1000, settings);
    assert.equal(cut.limitedAtRps, 10);
    assert.equal(cut.rps, 8.5);
  });

  it('a known limit is reached without a plateau and never passed', () => {
    const known = { ...second(0), maxRps: 40 };
    let state: GovernorState = { ...initialGovernorState(40, settings), rps: 34, limitedAtRps: 40 };
    for (let i = 1; i <= 6; i += 1) state = governorObserve(state, { ...known, answered: 30 }, i * 1000, settings);
    assert.equal(state.rps, 40);
  });

  it('in slow start, one bunch of calls is not the rate filled: demand is read over the whole step', () => {
    // At 64 since 0, a worker short of CPU reports 37 calls a second, then a bunch of 53 (over 0.8 of 64).
    const reports = [37, 37, 37, 37, 37, 37, 37, 37, 53];
    const after = (given: typeof settings) => {
      let state = raisedTo64({}, given);
      state = { ...state, step: { sinceMs: 0, calls: 0 } };
      reports.forEach((calls, i) => (state = governorObserve(state, second(calls), (i + 1) * 1000, given)));
      return state.rps;
    };
    assert.equal(after(settings), 64);
  });

  it('after every worker was silent longer than a report stays fresh, demand is read from the workers back, not the gap', () => {
    // Slow start, each rate filled, for 6 s; then no report for 60 s (every worker restarting); then full seconds.
    const slowStart = run(initialGovernorState(null, settings), 0, 6);
    let state = slowStart.state;
    const before = state.rps;
    // Two seconds at half the rate (no raise), so the step has calls when the workers go.
    for (let s = 1; s <= 2; s++)
      state = governorObserve(state, second(before / 2), slowStart.nowMs + s * 1000, settings);
    assert.equal(state.rps, before);
    const back = slowStart.nowMs + 2000 + 60_000;
    for (let s = 1; s <= 3; s++) state = governorObserve(state, second(before), back + s * 1000, settings);
    // Over the whole step, 3 full seconds of 63 would read as a twentieth of the rate: no raise for minutes.
    assert.ok(state.rps > before, `expected a raise above ${before}, found ${state.rps}`);
  });

  it('a refused bunch under the limit read before lowers that limit by one fast-convergence step at most', () => {
    const state: GovernorState = { ...initialGovernorState(null, settings), rps: 33.63, limitedAtRps: 39.56 };
    // 45 calls in a second at a rate of 33.63: a backlog dispatched at once after a stall, one of them refused.
    const bunched = governorObserve(state, second(44, 1), 1000, settings);
    assert.equal(bunched.limitedAtRps, 36.59);
    assert.equal(bunched.rps, 31.1);
    // Refused at the rate itself, the limit is taken to be a little under it.
    const atRate = governorObserve(state, second(32, 1), 1000, settings);
    assert.equal(atRate.limitedAtRps, 31.11);
  });

  it('refused in slow start at a rate its calls never filled, takes the limit a little under what they reached', () => {
    let state = raisedTo64();
    state = { ...state, step: { sinceMs: 0, calls: 0 } };
    // At 64 since 0, a worker short of CPU makes 45 calls a second; the service's bucket runs dry after 8 s.
    for (let i = 1; i <= 8; i += 1) state = governorObserve(state, second(45), i * 1000, settings);
    state = governorObserve(state, second(44, 1), 9000, settings);
    assert.equal(state.limitedAtRps, 41.63);
    assert.equal(state.rps, 35.38);
  });
});
