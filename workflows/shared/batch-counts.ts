import type { ItemOutcome, RunningStage } from './stages.js';

// Counts of verifications a batch started, here because a batch's events (the event catalogue) and a refresh (which
// counts its patients' verifications like a batch's items) read them too.

/** The items' workflows as visibility counts them, every resubmission round included. */
export interface VisibleItemCounts {
  total: number;
  running: Record<RunningStage, number>;
  outcomes: Record<ItemOutcome, number>;
}

/** Where the items of a batch stand; each item (its latest attempt) is counted once, so the parts add up to `items`. */
export interface BatchCounts {
  /** Valid rows: the batch's items. */
  items: number;
  /** Rows refused at submission (not items). */
  invalid: number;
  /** Items whose caller id already had a verification: not started again. */
  duplicate: number;
  /** Items whose start failed (e.g. a sandbox discovery that could not be created). */
  notStarted: number;
  /** Items never started because the batch was cancelled first. */
  skipped: number;
  /** Items not started yet, or started but not yet visible. */
  queued: number;
  running: Record<RunningStage, number>;
  outcomes: Record<ItemOutcome, number>;
}
