import type { GovernorState, RateDecision } from './governor.js';

/** The governor's calls out, implemented by `activities/governor/`; both run as local activities. */
export interface GovernorActivities {
  /** The rules (`activities/governor/aimd.ts`): the state after the reports. Recorded, so a rule change replays. */
  decideRate: (decision: RateDecision) => Promise<GovernorState>;
  /** Set the task queue's activity dispatch rate. */
  applyQueueRate: (taskQueue: string, rps: number, reason: string) => Promise<void>;
}
