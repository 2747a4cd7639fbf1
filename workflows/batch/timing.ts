/**
 * How a batch paces itself, in seconds (counts are polled, pages released, the batch kept open). Part of the batch's
 * input, so tests shorten them instead of waiting.
 */
export interface BatchTiming {
  /** First interval between two looks at the items' counts; it doubles while nothing changes, and resets on a change. */
  pollInitialSeconds: number;
  /** Longest interval while items are on their way (starting, creating, retrying a failing service). */
  pollBusyMaxSeconds: number;
  /** Longest interval once nothing is on its way (items wait for people or for their grace period to end). */
  pollMaxSeconds: number;
  /** Pages starting their items at once: a cancel stops the others before they start anything. */
  pagesInFlight: number;
  /** A page not released by its batch within this long (the submitter died before starting the batch) ends unstarted. */
  releaseWithinSeconds: number;
  /** Once every item has closed, the batch stays open this long for resubmissions, then completes. */
  keepOpenSeconds: number;
  /** After a cancel, the running items are cancelled twice, this far apart: visibility lags the last starts. */
  cancelSweepSeconds: number;
  /** The batch continues as new past this many history events (or sooner when Temporal suggests it). */
  continueAfterEvents: number;
}

const HOUR = 3600;

export const DEFAULT_BATCH_TIMING: BatchTiming = {
  pollInitialSeconds: 2,
  pollBusyMaxSeconds: 30,
  pollMaxSeconds: 300,
  pagesInFlight: 2,
  releaseWithinSeconds: HOUR,
  keepOpenSeconds: 7 * 24 * HOUR,
  cancelSweepSeconds: 5,
  continueAfterEvents: 4000,
};

export function resolveBatchTiming(partial: Partial<BatchTiming> | undefined): BatchTiming {
  return { ...DEFAULT_BATCH_TIMING, ...partial };
}
