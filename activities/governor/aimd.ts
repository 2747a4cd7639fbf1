import {
  reportedRps,
  roundRps,
  SLOW_START_REASON,
  type GovernorSettings,
  type GovernorState,
  type OutcomeReport,
  type RateDecision,
} from '../../workflows/governor/governor.js';

/*
 * The governor's rules (docs/developing/traffic.md). They run in the `decideRate` local activity, whose result the
 * governor's history records: changing a rule changes the worker, not replayed workflow code, so it needs no patch and
 * no new version.
 */

export const DEFAULT_GOVERNOR_SETTINGS: GovernorSettings = {
  initialRps: 8,
  minRps: 0.5,
  decrease: 0.85,
  probeShare: 0.02,
  slowStartFactor: 2,
  slowStartEveryMs: 2000,
  probeAfterMs: 10_000,
  holdMs: 2000,
  raiseEveryMs: 1000,
  reportFreshMs: 30_000,
};

/** Demand at or above this share of the rate means the rate is what holds calls back: raising it is worth trying. */
const BINDING_SHARE = 0.8;
/** More failures than this share of an interval's calls (5xx, no answer): a struggling service is not raised. */
const FAILED_SHARE = 0.1;
/** Calls reported above this multiple of the rate came in a bunch (the queue dispatched a backlog at once). */
const BUNCHED_SHARE = 1.15;
/** A step shorter than this says too little about demand: the report's own demand is read instead. */
const MIN_STEP_MS = 1000;
/** A probe step, and all the raises one report makes, are at most this share of the rate. */
const MAX_PROBE_SHARE = 0.25;
/** At most this many raises in one report. */
const MAX_RAISES_PER_REPORT = 5;
/** Refused again at or under the rate refused before: the limit is taken to be this share of the rate. */
const FAST_CONVERGENCE = 0.925;
/** More refusals than this share of a report's calls: the service's limit is well under the rate. */
const MANY_REFUSED_SHARE = 0.2;
/**
 * A share of fewer calls than this says little: which of a handful of calls meets the service's bucket
 * empty is chance, so such a report is read as any 429 is.
 */
const MIN_SHARE_CALLS = 10;
/**
 * A rate that held this long with no 429 anywhere is taken to be under the limit: the service's bucket
 * hides a step over the limit for a second or two, not for longer. Reports a second apart (R = 40) leave each step
 * shorter than this, read as before; reports 8 s apart (R = 5) prove each step they hold.
 */
const HELD_PROVES_MS = 4000;

export function initialGovernorState(maxRps: number | null, settings: GovernorSettings): GovernorState {
  return {
    rps: roundRps(maxRps ?? settings.initialRps),
    holdUntilMs: 0,
    lastRaiseMs: 0,
    workers: {},
    maxRps,
    totals: { reports: 0, calls: 0, rateLimited: 0, raises: 0, cuts: 0 },
  };
}

/** The governor's `decideRate`: its state (a first one from `maxRps` when it has none) after the reports, in order. */
export function decideRate({ state, maxRps, reports, nowMs, settings }: RateDecision): GovernorState {
  const rules = { ...DEFAULT_GOVERNOR_SETTINGS, ...settings };
  return reports.reduce(
    (next, report) => governorObserve(next, report, nowMs, rules),
    state ?? initialGovernorState(maxRps, rules),
  );
}

/**
 * AIMD on the queue's dispatch rate, one report at a time (deterministic: `nowMs` is the workflow's clock).
 * - A 429 cuts the rate to `decrease` times the rate the limit is taken to be at (`refusedAt`), then holds it for
 *   `holdMs` or the service's `Retry-After`, whichever is longer: calls dispatched before the cut still come back
 *   refused, and cutting again for each would collapse the rate.
 * - Otherwise, while demand fills the rate (over the whole step at this rate: a CPU-short worker's bunch is not it), it
 *   rises: by `slowStartFactor` until the first 429 (a high limit is found in a few reports), then by half the gap to
 *   the rate last refused, where it stays a while (`stayAfterRefusal`) before probing above it by steps that double
 *   from `probeShare` of it: the rate spends most of its time at the limit, and finds out within seconds when the
 *   limit goes up. The start rate is held `slowStartEveryMs` from its first call (a limit under it shows within that);
 *   the steps after it, a second each (`raiseEveryMs`).
 * - Never above `maxRps` (ELIGIBILITY_MAX_RPS) when set, never below `minRps`.
 */
export function governorObserve(
  state: GovernorState,
  report: OutcomeReport,
  nowMs: number,
  settings: GovernorSettings,
): GovernorState {
  const seconds = Math.max(report.intervalMs, 1) / 1000;
  const calls = report.answered + report.rateLimited;
  const workers = Object.fromEntries(
    Object.entries(state.workers).filter(([, w]) => nowMs - w.atMs <= settings.reportFreshMs),
  );
  workers[report.workerId] = { rps: calls / seconds, servedRps: report.answered / seconds, atMs: nowMs };
  const totals = {
    ...state.totals,
    reports: state.totals.reports + 1,
    calls: state.totals.calls + calls,
    rateLimited: state.totals.rateLimited + report.rateLimited,
  };
  const maxRps = report.maxRps;
  let next: GovernorState = { ...state, workers, totals, maxRps, step: countStep(state, report, nowMs, settings) };
  const change = (rps: number, reason: string, extra: Partial<GovernorState> = {}): GovernorState => {
    const bounded = roundRps(Math.max(settings.minRps, maxRps === null ? rps : Math.min(maxRps, rps)));
    if (bounded === next.rps) return { ...next, ...extra };
    return {
      ...next,
      ...extra,
      step: newStep(nowMs),
      rps: bounded,
      lastChange: { atMs: nowMs, fromRps: next.rps, reason },
    };
  };

  // A lowered ELIGIBILITY_MAX_RPS applies at once.
  if (maxRps !== null && next.rps > maxRps) next = change(maxRps, 'ELIGIBILITY_MAX_RPS lowered');
  if (nowMs < next.holdUntilMs) return next;

  if (report.rateLimited > 0) {
    const limitedAt = refusedAt(next, report, workers, stepDemand(next, nowMs), nowMs, settings);
    return change(limitedAt * settings.decrease, `429 from the service (${report.rateLimited} in a report)`, {
      limitedAtRps: roundRps(limitedAt),
      atLimitSinceMs: undefined,
      probes: 0,
      stayMs: stayAfterRefusal(next, limitedAt, settings),
      raisedFrom: undefined,
      lastRaisedFromHeldMs: undefined,
      holdUntilMs: nowMs + Math.max(settings.holdMs, report.retryAfterMs),
      totals: { ...totals, cuts: totals.cuts + 1 },
    });
  }

  // Discovering, a rate nobody fills proves nothing about the limit. Known, the way back to it after a cut needs no
  // proof: a worker short of CPU (demand under the rate) must not hold the rate down once it catches up.
  const binding = maxRps !== null || demandOf(next, workers, nowMs) >= BINDING_SHARE * next.rps;
  const healthy = report.failed <= FAILED_SHARE * Math.max(calls, 1);
  if (!binding || !healthy || nowMs - next.lastRaiseMs < settings.raiseEveryMs) return next;
  if (maxRps !== null && next.rps >= maxRps) return next;
  const limitedAt = next.limitedAtRps;
  if (limitedAt === undefined) {
    // The start rate is held 2 s from its first call: a limit under it (R = 5 from 8) shows within that, before a raise
    // adds to the calls refused. Once it held, nothing is known to be near: each step after it lasts a second.
    const heldMs = nowMs - (next.step?.sinceMs ?? nowMs);
    if (next.totals.raises === 0 && heldMs < settings.slowStartEveryMs) return next;
    return change(next.rps * settings.slowStartFactor, SLOW_START_REASON, {
      lastRaiseMs: nowMs,
      ...raisedFromNow(next, nowMs),
      limitedAtRps: undefined,
      atLimitSinceMs: undefined,
      totals: { ...totals, raises: totals.raises + 1 },
    });
  }
  // One raise per `raiseEveryMs` since the last, up to a quarter above the rate in one report: at a few calls a second
  // reports come every 8 s, and a raise per report would take minutes to close in and probe.
  const due =
    settings.raiseEveryMs <= 0
      ? 1
      : Math.min(MAX_RAISES_PER_REPORT, Math.floor((nowMs - next.lastRaiseMs) / settings.raiseEveryMs));
  const from = next;
  const ceiling = from.rps * (1 + MAX_PROBE_SHARE);
  for (let i = 0; i < due && !(maxRps !== null && next.rps >= maxRps); i++) {
    const raise = raiseTowardLimit(next, limitedAt, nowMs, settings);
    if (raise.rps === undefined) return { ...next, ...raise.extra };
    if (i > 0 && raise.rps > ceiling) break;
    next = change(raise.rps, raise.reason, {
      ...raise.extra,
      lastRaiseMs: nowMs,
      totals: { ...next.totals, raises: next.totals.raises + 1 },
    });
  }
  // A probe is remembered by the rate this report started from: the steps between ran for no time at all.
  const probed = (next.probes ?? 0) > (from.probes ?? 0);
  return probed ? { ...next, ...raisedFromNow(from, nowMs) } : next;
}

/**
 * The last two rates raised from, this one added: as the calls a second its step reached if under the rate (a worker short of CPU never filled it: the service never saw the rate, so a 429 later says nothing of
 * it), and keeps how long it had held when the raise came (since its step's first call).
 */
function raisedFromNow(
  state: GovernorState,
  nowMs: number,
): Pick<GovernorState, 'raisedFrom' | 'lastRaisedFromHeldMs'> {
  const before = state.raisedFrom ?? [];
  const reached = Math.min(state.rps, stepDemand(state, nowMs) ?? state.rps);
  return {
    raisedFrom: [...before, roundRps(reached)].slice(-2),
    lastRaisedFromHeldMs: nowMs - (state.step?.sinceMs ?? state.lastChange?.atMs ?? nowMs),
  };
}

/**
 * The calls counted toward the current rate's step: a report's calls, each worker's, in the share of its interval
 * that fell after the rate last changed (a report straddling a change is mostly the old rate's).
 */
function countStep(
  state: GovernorState,
  report: OutcomeReport,
  nowMs: number,
  settings: GovernorSettings,
): NonNullable<GovernorState['step']> {
  const calls = report.answered + report.rateLimited;
  // After a silence longer than a report stays fresh (every worker gone: a restart, a deploy), the step starts again:
  // time nobody was there to call is not a rate left unfilled, and counting it would hold the rate down for minutes
  // after the workers are back.
  const heardMs = Math.max(...Object.values(state.workers).map((w) => w.atMs));
  const silent = nowMs - heardMs > settings.reportFreshMs;
  let step = state.step !== undefined && !silent ? state.step : newStep(nowMs - (calls > 0 ? report.intervalMs : 0));
  // A step starts at its first call (a report's interval starts at its first call too): time nothing was asked of the
  // service, a governor started with its worker an hour before the first batch, is no demand left unfilled.
  if (step.calls === 0 && calls > 0) step = { ...step, sinceMs: Math.max(step.sinceMs, nowMs - report.intervalMs) };
  const overlap = report.intervalMs <= 0 ? 0 : Math.min(1, Math.max(0, (nowMs - step.sinceMs) / report.intervalMs));
  const answered = step.answered === undefined ? {} : { answered: step.answered + report.answered * overlap };
  return { ...step, calls: step.calls + calls * overlap, ...answered };
}

/** A step at a rate, before its first report: nothing counted yet. */
function newStep(sinceMs: number): NonNullable<GovernorState['step']> {
  return { sinceMs, calls: 0, answered: 0 };
}

/**
 * Calls a second across the workers, read over the whole step at this rate (calls since it last
 * changed), not from each worker's latest report: a worker short of CPU sends its calls in bunches, and one bunch is
 * not the rate filled. A step under a second is read from the reports.
 */
function demandOf(state: GovernorState, workers: GovernorState['workers'], nowMs: number): number {
  return stepDemand(state, nowMs) ?? reportedRps(workers);
}

/** Calls a second over the step at this rate, or undefined when it is under a second long. */
function stepDemand(state: GovernorState, nowMs: number): number | undefined {
  const { step } = state;
  if (!step || nowMs - step.sinceMs < MIN_STEP_MS) return undefined;
  return step.calls / ((nowMs - step.sinceMs) / 1000);
}

/**
 * One raise above the rate last refused: half the gap while under it; at it, after a stay (`stayAfterRefusal`), a
 * probe above it, each step twice the last (2%, 4%, 8%... of it, at most a quarter of the rate): a limit that held
 * finds few 429s in the first steps, and a limit found low (a bunch of calls refused at the start, R raised since) is
 * left behind in seconds, not minutes. `rps` undefined: staying.
 */
function raiseTowardLimit(
  state: GovernorState,
  limitedAt: number,
  nowMs: number,
  settings: GovernorSettings,
): { rps: number; reason: string; extra: Partial<GovernorState> } | { rps?: undefined; extra: Partial<GovernorState> } {
  const step = Math.max(limitedAt, state.rps) * settings.probeShare;
  if (state.rps + step / 2 < limitedAt) {
    // Below the rate last refused: half the gap (at least a probe's step), never past it in one raise.
    const closer = state.rps + Math.max(step, (limitedAt - state.rps) / 2);
    return {
      rps: Math.min(limitedAt, closer),
      reason: 'calls served: closing in',
      extra: { atLimitSinceMs: undefined },
    };
  }
  const since = state.atLimitSinceMs ?? nowMs;
  const stayMs = state.stayMs ?? settings.probeAfterMs;
  // Staying counts as the last raise: the first probe after the stay is one step, not one per second stayed.
  if (nowMs - since < stayMs) return { extra: { atLimitSinceMs: since, lastRaiseMs: nowMs } };
  const probes = state.probes ?? 0;
  const probeStep = Math.min(step * 2 ** probes, state.rps * MAX_PROBE_SHARE);
  return {
    rps: state.rps + probeStep,
    reason: 'calls served: probing above the last limit',
    extra: { atLimitSinceMs: since, probes: probes + 1 },
  };
}

/**
 * How long the rate stays at the limit before probing above it, after a 429. Found by slow start: not at all, the
 * range between the rate before the last raise and the rate refused is unexplored. Found by a probe: `probeAfterMs`
 * (the service's bucket refills meanwhile), twice the last stay when the limit did not rise, up to 32 times: a limit
 * that holds is probed ever more rarely. Refused at or under the limit: unchanged.
 */
function stayAfterRefusal(state: GovernorState, limitedAt: number, settings: GovernorSettings): number | undefined {
  const { limitedAtRps, rps, stayMs } = state;
  if (limitedAtRps === undefined) return 0;
  if (rps <= limitedAtRps) return stayMs;
  if (limitedAt > limitedAtRps * 1.1) return settings.probeAfterMs;
  return Math.min(Math.max(2 * (stayMs ?? 0), settings.probeAfterMs), 32 * settings.probeAfterMs);
}

/**
 * The rate the service's limit is taken to be at, from a report with 429s. Known (ELIGIBILITY_MAX_RPS): the rate. In
 * slow start, at most the rate, the highest of: the rate before the last raise if it held 2 s (the service's bucket
 * hid for a second or two that the raise passed the limit; else the rate before that one, else half this rate), 0.925
 * × the demand over the step if the calls never filled it in a second or more, the calls the service took over the
 * step with its bucket counted (`tookOverStep`, from 10 calls), and with over a fifth of the calls refused the share of
 * this rate the service answered (before any raise with none of these: that share, or the rate). Probing, whose steps double: the rate two raising reports back (the bucket
 * hides more of a larger step), never under the limit probed from. At or under the rate refused before: a little under this rate
 * (TCP CUBIC's fast convergence), or the rate would climb back and be refused there again and again, or what the service
 * answered over a step of 2 s or more that the calls filled, if lower (`servedOverStep`); with over a
 * fifth refused (R was lowered under the rate), the share answered if lower, at most a halving, since a short report
 * of calls a starved worker sent in a bunch says little. A fifth refused is read only from 10 calls or more; a probe's
 * 429 is read at the rate the last probe raised from when it held `HELD_PROVES_MS`.
 */
function refusedAt(
  state: GovernorState,
  report: OutcomeReport,
  workers: GovernorState['workers'],
  demand: number | undefined,
  nowMs: number,
  settings: GovernorSettings,
): number {
  const calls = Math.max(report.answered + report.rateLimited, 1);
  const overshoot = report.rateLimited / calls > MANY_REFUSED_SHARE && calls >= MIN_SHARE_CALLS;
  const { rps, limitedAtRps } = state;
  // A known limit (ELIGIBILITY_MAX_RPS) is trusted: a 429 under it is calls bunched by a worker short of CPU, and a
  // cut from the rate itself is enough (the rate returns to the limit within seconds).
  if (state.maxRps !== null) return rps;
  const answeredRps = Math.max(rps / 2, (rps * report.answered) / calls);
  const raisedFrom = state.raisedFrom ?? [];
  if (limitedAtRps === undefined) {
    // Calls that never filled this step, a second long at least (a worker short of CPU held them under
    // the rate), were refused at their own rate, not at this one: the limit is a little under what they reached, and
    // no hidden step is assumed.
    const unfilled = demand !== undefined && demand < BINDING_SHARE * rps;
    const proven = provenBefore(state, settings);
    const before = unfilled ? Math.max(proven ?? 0, demand * FAST_CONVERGENCE) : proven;
    // What the service took over this step before refusing, its bucket counted: a better reading than the rate
    // before, which may be half the limit (32 of 40, refused at 64).
    const took = tookOverStep(state, nowMs);
    if (before === undefined && took === undefined) return overshoot ? answeredRps : rps;
    const floor = before ?? rps / 2;
    return Math.min(rps, Math.max(floor, took ?? 0, overshoot ? answeredRps : 0));
  }
  if (rps > limitedAtRps) return Math.max(limitedAtRps, raisedFrom.length === 2 ? raisedFrom[0]! : 0, held(state));
  // Calls far above the rate came in a bunch, and the bunch was refused, not the rate. The limit read
  // falls by at most one fast-convergence step, never under the rate.
  if (!overshoot && reportedRps(workers) > BUNCHED_SHARE * rps) {
    return Math.max(rps, limitedAtRps * FAST_CONVERGENCE);
  }
  const under = overshoot ? Math.min(rps * FAST_CONVERGENCE, answeredRps) : rps * FAST_CONVERGENCE;
  // Refused again after seconds at a rate the calls filled: what the service answered over them is about its limit (its
  // bucket emptied by the refusals before), so one cut reaches under the limit where 0.925 steps took several, each
  // with its 429s (R = 5 from 8). Never up, and at most a halving, as above.
  const served = servedOverStep(state, demand, nowMs);
  return served === undefined ? under : Math.min(under, Math.max(served, rps / 2));
}

/** A step this long at least: the service's bucket (a second of its limit) is a small share of what it answered. */
const SERVED_READ_MS = 2000;

/**
 * The calls a second the service answered over the step at this rate, when the step is `SERVED_READ_MS` long, holds 10
 * calls or more and the calls filled the rate (else its answers are the demand's, not the limit's): undefined otherwise.
 */
function servedOverStep(state: GovernorState, demand: number | undefined, nowMs: number): number | undefined {
  const { step, rps } = state;
  if (step?.answered === undefined || nowMs - step.sinceMs < SERVED_READ_MS || step.calls < MIN_SHARE_CALLS) {
    return undefined;
  }
  if (demand === undefined || demand < BINDING_SHARE * rps) return undefined;
  // The demand is the step's calls a second: the answered share of it is what the service took.
  return demand * (step.answered / step.calls);
}

/** The service's bucket, taken to hold this many seconds of its limit (a one-second burst: the strictest reading). */
const BUCKET_SECONDS = 1;

/**
 * In slow start, the calls a second the service took over the step at this rate before its first 429: a bucket of R
 * over one second, full when the step began (the rate before was under the limit), and R more each second, so
 * R = calls ÷ (seconds + 1). A step that began over the limit began with a bucket part empty, and reads lower. A
 * bucket of more than a second reads higher: the next 429 reads it again, a little under the rate.
 */
function tookOverStep(state: GovernorState, nowMs: number): number | undefined {
  const { step } = state;
  // Which of a handful of calls met the bucket empty is chance: too few to read a rate from.
  if (!step || step.calls < MIN_SHARE_CALLS) return undefined;
  return step.calls / ((nowMs - step.sinceMs) / 1000 + BUCKET_SECONDS);
}

/**
 * In slow start, the rate before the last raise, the limit's floor when it held `slowStartEveryMs` (the service's
 * bucket hides a raise past the limit for a second or two, no longer); one that held a second, as the steps after the
 * start rate do, proves less: the rate before it.
 */
function provenBefore(state: GovernorState, settings: GovernorSettings): number | undefined {
  const raisedFrom = state.raisedFrom ?? [];
  const heldMs = state.lastRaisedFromHeldMs;
  if (heldMs === undefined || heldMs >= settings.slowStartEveryMs) return raisedFrom.at(-1);
  return raisedFrom.length === 2 ? raisedFrom[0] : undefined;
}

/**
 * The rate the last probing report raised from, if it had held `HELD_PROVES_MS` or more (else 0): no
 * step was hidden there, so the limit is at least that.
 */
function held(state: GovernorState): number {
  const heldMs = state.lastRaisedFromHeldMs;
  return heldMs !== undefined && heldMs >= HELD_PROVES_MS ? (state.raisedFrom?.at(-1) ?? 0) : 0;
}
