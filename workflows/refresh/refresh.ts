import type { VisibleItemCounts } from '../shared/batch-counts.js';
import { defineQuery } from '@temporalio/workflow';

/*
 * The monthly refresh (issue 35, decision 0050): one workflow per run of a tenant's schedule re-verifies every active
 * patient once. Its inputs and answers carry a tenant (a clinic id), months and counts, never a patient value.
 */

/** Active: a scheduled visit in one of the `pastMonths` months before the refresh's month, that month, or the
 * `nextMonths` after it. */
export interface ActiveWindow {
  pastMonths: number;
  nextMonths: number;
}

export const DEFAULT_ACTIVE_WINDOW: ActiveWindow = { pastMonths: 12, nextMonths: 3 };

export interface RefreshPolicy {
  /** Patients asked per page (one visibility list, one signal each). */
  pageSize: number;
  /** Patients asked but not answered yet, at most: the pace follows the verifications, which the governor paces. */
  maxInFlight: number;
  /** Between two looks at visibility while waiting (seconds); also how long "nothing left" must hold to be believed. */
  settleSeconds: number;
  /** Continue as new after this many history events: the history stays bounded for any number of patients. */
  continueAfterEvents: number;
  /** How long patients may be asked while not one more takes the refresh (a patient stuck: its workflow task failing)
   * before the refresh stops asking and reports them `unanswered`. Long beside a worker's restart, which holds answers
   * back for seconds to a minute. */
  stalledSeconds: number;
}

export const DEFAULT_REFRESH_POLICY: RefreshPolicy = {
  pageSize: 200,
  maxInFlight: 400,
  settleSeconds: 5,
  continueAfterEvents: 1000,
  stalledSeconds: 600,
};

export interface RefreshWorkflowInput {
  tenant: string;
  window?: Partial<ActiveWindow>;
  policy?: Partial<RefreshPolicy>;
  /** What a run hands the next across continue-as-new. */
  carried?: RefreshCarried;
}

export type RefreshPhase = 'asking' | 'finishing' | 'done';

export interface RefreshCarried {
  /** The first run's workflow id: the patients' verifications are derived from it. */
  refreshId: string;
  /** The months (`YYYY-MM`) an active patient has a visit in. */
  months: string[];
  startedAt: number;
  phase: RefreshPhase;
  /** Signals sent (a patient asked twice, while visibility lagged, counts twice here and verifies once). */
  asked: number;
  pages: number;
  finishedAt?: number;
  /** Patients still asked when the refresh stopped asking because none answered (see `stalledSeconds`). */
  unanswered?: number;
  /** While asking: the patients that had taken the refresh at the last look, and since when none more has. */
  answered?: RefreshAnswered;
}

export interface RefreshAnswered {
  patients: number;
  /** Epoch ms. */
  since: number;
}

/** The refresh as people follow it: from visibility, so a moment's picture while it runs, exact once it stops. */
export interface RefreshProgress extends RefreshCarried {
  tenant: string;
  /** Patients that took this refresh (their `RefreshId`). */
  patients: number;
  /** Their verifications, counted like a batch's items (`BatchId` = the refresh id); absent before the first count. */
  verifications?: VisibleItemCounts;
}

export interface AskPatientsInput {
  tenant: string;
  /** The refresh's own task queue: its patients run there. */
  taskQueue: string;
  refreshId: string;
  months: string[];
  pageSize: number;
}

export interface RefreshCounts {
  patients: number;
  verifications: VisibleItemCounts;
}

/** Verified: the service answered (covered or not); failed: every other end. */
export function refreshTotals(counts: VisibleItemCounts): { running: number; verified: number; failed: number } {
  const running = Object.values(counts.running).reduce((a, b) => a + b, 0);
  const verified = counts.outcomes.completed + counts.outcomes['no-coverage'];
  return { running, verified, failed: counts.total - running - verified };
}

/** Where a refresh stands: patients asked, their verifications verified, failed, still running. */
export const refreshProgressQuery = defineQuery<RefreshProgress>('refreshProgress');
