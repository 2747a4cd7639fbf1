/**
 * How long a verification waits, in seconds. Part of the workflow input so tests shorten them instead of waiting.
 * The defaults (docs/developing/workflows.md): polling is only the fallback for lost webhooks, so it starts at 15 s and
 * doubles up to every 2 h (about 7 polls in the first hour, 45 in three days), each poll costing a timer and an
 * activity.
 */
export interface Timing {
  /** First polling interval of a discovery wait; each next one doubles. */
  pollInitialSeconds: number;
  /** Longest polling interval. */
  pollMaxSeconds: number;
  /** A discovery not complete by then ends the workflow as `timed-out`. */
  discoveryDeadlineSeconds: number;
  /** After creation, a verification with no run awaiting input completes after this long. */
  graceSeconds: number;
  /** A run still awaiting input this long after it opened ends the workflow as `timed-out`. */
  inputDeadlineSeconds: number;
  /**
   * A v1 creation in `needs-review` with no decision this long ends the workflow as `timed-out`: closing without a
   * verification id is the one ending that cannot create a duplicate; the result says one may exist.
   */
  reviewDeadlineSeconds: number;
}

const HOUR = 3600;

export const DEFAULT_TIMING: Timing = {
  pollInitialSeconds: 15,
  pollMaxSeconds: 2 * HOUR,
  discoveryDeadlineSeconds: 72 * HOUR,
  graceSeconds: 24 * HOUR,
  inputDeadlineSeconds: 7 * 24 * HOUR,
  reviewDeadlineSeconds: 7 * 24 * HOUR,
};

export function resolveTiming(partial: Partial<Timing> | undefined): Timing {
  return { ...DEFAULT_TIMING, ...partial };
}

/** Durations for `condition`/`sleep`: milliseconds, at least 1. */
export function ms(seconds: number): number {
  return Math.max(1, Math.round(seconds * 1000));
}
