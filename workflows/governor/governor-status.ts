import { reportedRps, roundRps, type GovernorState, type GovernorStatus } from './governor.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** The `status` query's answer; before the first decision (`state` undefined), the ceiling it started with. */
export function governorStatus(
  taskQueue: string,
  maxRps: number | null,
  state: GovernorState | undefined,
  appliedRps: number | undefined,
  nowMs: number,
): GovernorStatus {
  const known = state?.maxRps ?? maxRps;
  return {
    taskQueue,
    mode: known === null ? 'discovering' : 'known',
    rps: state?.rps ?? appliedRps ?? 0,
    ...(appliedRps === undefined ? {} : { appliedRps }),
    maxRps: known,
    ...(state?.limitedAtRps === undefined ? {} : { limitedAtRps: state.limitedAtRps }),
    demandRps: roundRps(reportedRps(state?.workers ?? {})),
    workers: Object.keys(state?.workers ?? {}).length,
    ...(state && state.holdUntilMs > nowMs ? { holdUntil: iso(state.holdUntilMs) } : {}),
    ...(state?.lastChange
      ? {
          lastChange: {
            at: iso(state.lastChange.atMs),
            fromRps: state.lastChange.fromRps,
            reason: state.lastChange.reason,
          },
        }
      : {}),
    totals: state?.totals ?? { reports: 0, calls: 0, rateLimited: 0, raises: 0, cuts: 0 },
  };
}
