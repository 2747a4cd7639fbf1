import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxStats } from '../../src/contract/index.js';
import type { SandboxControl } from '../faults/sandbox-control.js';

const POLL_MS = 250;

/** Service calls in the sandbox's stats: every route of the spec but the token endpoint (and never /sandbox/...). */
export function serviceCalls(stats: SandboxStats): number {
  return Object.entries(stats.calls)
    .filter(([route]) => !route.includes(' /sandbox/') && !route.includes('/oauth/token'))
    .reduce((sum, [, byStatus]) => sum + Object.values(byStatus).reduce((a, b) => a + b, 0), 0);
}

/** The service's counts at one poll, ms from the first start. */
export interface ServiceSample {
  atMs: number;
  calls: number;
  created: number;
  tooMany: number;
}

/** A run as the service saw it: when verifications were created, and the 429s it sent. */
export interface ServiceTrace {
  /** ms from the first start until the `count`-th verification was created (undefined: not within the time limit). */
  doneMs: number | undefined;
  /** Verifications created when the follow ended, and after how long (ms): the rate of a run that did not finish. */
  created: number;
  elapsedMs: number;
  calls: number;
  tooMany: number;
  /** ms from the first start of the last poll at which the sandbox's 429 count had grown. */
  last429Ms: number | undefined;
  /** 429s counted after the mid-run change of R, calls after it, and when it happened (ms from the first start). */
  after: { calls: number; tooMany: number; atMs: number } | undefined;
  /** After the change of R: each poll at which the 429 count grew (ms from the first start) and by how many. */
  refusalsAfter: { atMs: number; count: number }[];
}

export interface FollowHooks {
  onTick?: (created: number) => Promise<boolean>;
  onSample?: (sample: ServiceSample) => void;
}

/**
 * Follows the sandbox's stats from `t0` until `count` verifications are created or `maxMs` passes. `onTick` may act
 * mid-run (move R) and says whether it did, from which time `after` counts; `onSample` sees every poll's counts.
 */
export async function followService(
  sandbox: SandboxControl,
  t0: number,
  count: number,
  maxMs: number,
  { onTick, onSample }: FollowHooks = {},
): Promise<ServiceTrace> {
  let last429Ms: number | undefined;
  let tooMany = 0;
  let mark: { calls: number; tooMany: number; atMs: number } | undefined;
  const refusalsAfter: ServiceTrace['refusalsAfter'] = [];
  for (;;) {
    const stats = await sandbox.stats();
    const now = performance.now() - t0;
    if (stats.tooManyRequestsSent > tooMany) {
      last429Ms = now;
      if (mark) refusalsAfter.push({ atMs: now, count: stats.tooManyRequestsSent - tooMany });
    }
    tooMany = stats.tooManyRequestsSent;
    const calls = serviceCalls(stats);
    onSample?.({ atMs: now, calls, created: stats.verificationsCreated, tooMany });
    const after = mark && { calls: calls - mark.calls, tooMany: tooMany - mark.tooMany, atMs: mark.atMs };
    if (stats.verificationsCreated >= count || now > maxMs) {
      const doneMs = stats.verificationsCreated >= count ? now : undefined;
      const created = stats.verificationsCreated;
      return { doneMs, created, elapsedMs: now, calls, tooMany, last429Ms, after, refusalsAfter };
    }
    if (!mark && onTick && (await onTick(stats.verificationsCreated))) {
      mark = { calls, tooMany, atMs: performance.now() - t0 };
      last429Ms = undefined;
    }
    await sleep(POLL_MS);
  }
}

/**
 * When the 429s that followed a change of R stopped: the last one before the first `quietMs` without any (ms from the
 * change), and those after that quiet (an AIMD's probes of the limit, one bunch per probe).
 */
export function refusalsSettled(
  trace: ServiceTrace,
  quietMs: number,
): { settledMs: number; later: number; laterBunches: number } | undefined {
  if (!trace.after) return undefined;
  const { atMs } = trace.after;
  let settledAt = atMs;
  let i = 0;
  for (; i < trace.refusalsAfter.length; i += 1) {
    if (trace.refusalsAfter[i]!.atMs - settledAt > quietMs) break;
    settledAt = trace.refusalsAfter[i]!.atMs;
  }
  const later = trace.refusalsAfter.slice(i);
  let laterBunches = 0;
  for (let j = 0; j < later.length; j += 1)
    if (j === 0 || later[j]!.atMs - later[j - 1]!.atMs > quietMs) laterBunches += 1;
  return { settledMs: settledAt - atMs, later: later.reduce((sum, r) => sum + r.count, 0), laterBunches };
}
