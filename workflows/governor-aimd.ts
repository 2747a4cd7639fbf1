import type { GovernorSettings, GovernorState, GovernorStatus, OutcomeReport } from './governor-types.js';

export const DEFAULT_GOVERNOR_SETTINGS: GovernorSettings = {
  initialRps: 10,
  minRps: 0.5,
  decrease: 0.85,
  probeShare: 0.02,
  holdMs: 2000,
  raiseEveryMs: 1000,
  reportFreshMs: 30_000,
  continueAsNewAfterEvents: 2000,
};

/** Demand at or above this share of the rate means the rate is what holds calls back: raising it is worth trying. */
const BINDING_SHARE = 0.8;
/** More failures than this share of an interval's calls (5xx, no answer): a struggling service is not raised. */
const FAILED_SHARE = 0.1;
/** This far above the rate last refused without a 429, the old limit is forgotten and found again by doubling. */
const FORGET_ABOVE = 1.1;
/** More refusals than this share of a report's calls: the service's limit is well under the rate. */
const MANY_REFUSED_SHARE = 0.2;

const round = (rps: number) => Math.round(rps * 100) / 100;

export function initialGovernorState(maxRps: number | null, settings: GovernorSettings): GovernorState {
  return {
    rps: round(maxRps ?? settings.initialRps),
    holdUntilMs: 0,
    lastRaiseMs: 0,
    workers: {},
    maxRps,
    totals: { reports: 0, calls: 0, rateLimited: 0, raises: 0, cuts: 0 },
  };
}

/**
 * AIMD on the queue's dispatch rate, one report at a time (deterministic: `nowMs` is the workflow's clock).
 * - A 429 cuts the rate to `decrease` times the lower of the rate and what the service served lately, then holds it
 *   for `holdMs` or the service's `Retry-After`, whichever is longer: calls dispatched before the cut still come back
 *   refused, and cutting again for each would collapse the rate.
 * - Otherwise, while demand fills the rate, it rises: doubling until the first 429 (slow start: a high limit is found
 *   in a few reports), then half the gap to the rate last refused, then a probe of `probeShare` of it per raise
 *   above it, so the rate spends most of its time just under the limit and finds out when the limit goes up.
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
  let next: GovernorState = { ...state, workers, totals, maxRps };
  const change = (rps: number, reason: string, extra: Partial<GovernorState> = {}): GovernorState => {
    const bounded = round(Math.max(settings.minRps, maxRps === null ? rps : Math.min(maxRps, rps)));
    if (bounded === next.rps) return { ...next, ...extra };
    return { ...next, ...extra, rps: bounded, lastChange: { atMs: nowMs, fromRps: next.rps, reason } };
  };

  // A lowered ELIGIBILITY_MAX_RPS applies at once.
  if (maxRps !== null && next.rps > maxRps) next = change(maxRps, 'ELIGIBILITY_MAX_RPS lowered');
  if (nowMs < next.holdUntilMs) return next;

  if (report.rateLimited > 0) {
    // Many refusals: the limit is about what the service served (R was lowered under the rate). A few: the rate is
    // just over the limit, or a worker short of CPU sent calls in bunches; what it served then says nothing of R.
    const served = Object.values(workers).reduce((sum, w) => sum + w.servedRps, 0);
    const overshoot = report.rateLimited / Math.max(calls, 1) > MANY_REFUSED_SHARE;
    const limitedAt = overshoot && served > 0 ? Math.min(next.rps, served) : next.rps;
    return change(limitedAt * settings.decrease, `429 from the service (${report.rateLimited} in a report)`, {
      limitedAtRps: round(limitedAt),
      holdUntilMs: nowMs + Math.max(settings.holdMs, report.retryAfterMs),
      totals: { ...totals, cuts: totals.cuts + 1 },
    });
  }

  const demand = Object.values(workers).reduce((sum, w) => sum + w.rps, 0);
  // Discovering, a rate nobody fills proves nothing about the limit. Known, the way back to it after a cut needs no
  // proof: a worker short of CPU (demand under the rate) must not hold the rate down once it catches up.
  const binding = maxRps !== null || demand >= BINDING_SHARE * next.rps;
  const healthy = report.failed <= FAILED_SHARE * Math.max(calls, 1);
  if (!binding || !healthy || nowMs - next.lastRaiseMs < settings.raiseEveryMs) return next;
  if (maxRps !== null && next.rps >= maxRps) return next;
  // Well above the rate last refused with no 429 since: that limit is gone (raised, or the cut was a mistake), find
  // the new one as at the start.
  const limitedAt =
    next.limitedAtRps !== undefined && next.rps < next.limitedAtRps * FORGET_ABOVE ? next.limitedAtRps : undefined;
  const raised =
    limitedAt === undefined
      ? next.rps * 2
      : next.rps + Math.max(Math.max(limitedAt, next.rps) * settings.probeShare, (limitedAt - next.rps) / 2);
  const reason = limitedAt === undefined ? 'calls served, no 429 yet: doubling' : 'calls served: additive increase';
  return change(raised, reason, {
    lastRaiseMs: nowMs,
    ...(limitedAt === undefined ? { limitedAtRps: undefined } : {}),
    totals: { ...totals, raises: totals.raises + 1 },
  });
}

export function governorStatus(
  taskQueue: string,
  state: GovernorState,
  appliedRps: number | undefined,
  nowMs: number,
): GovernorStatus {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    taskQueue,
    mode: state.maxRps === null ? 'discovering' : 'known',
    rps: state.rps,
    ...(appliedRps === undefined ? {} : { appliedRps }),
    maxRps: state.maxRps,
    ...(state.limitedAtRps === undefined ? {} : { limitedAtRps: state.limitedAtRps }),
    demandRps: round(Object.values(state.workers).reduce((sum, w) => sum + w.rps, 0)),
    workers: Object.keys(state.workers).length,
    ...(state.holdUntilMs > nowMs ? { holdUntil: iso(state.holdUntilMs) } : {}),
    ...(state.lastChange
      ? {
          lastChange: {
            at: iso(state.lastChange.atMs),
            fromRps: state.lastChange.fromRps,
            reason: state.lastChange.reason,
          },
        }
      : {}),
    totals: state.totals,
  };
}
