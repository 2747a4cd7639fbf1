/** The governor's one call out, implemented by `activities/governor/`: set the task queue's activity dispatch rate. */
export interface GovernorActivities {
  applyQueueRate: (taskQueue: string, rps: number, reason: string) => Promise<void>;
}
