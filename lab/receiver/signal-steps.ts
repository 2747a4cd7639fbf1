import type { HistoryEvent } from '../../testing/billed-actions.js';
import { eventMs } from '../event-time.js';

/**
 * The time from a signal to the activity it sets off, step by step, from the woken workflow's history (server clock):
 * the signal recorded, its workflow task started and completed, the activity started and completed. Each step's time
 * is since the one before it, the first since `sentAt`; a step missing from the history, and every one after it, is
 * NaN. Undefined when the history has no such signal.
 */
export function signalSteps(
  events: readonly HistoryEvent[],
  sentAt: number,
  signalName?: string,
): number[] | undefined {
  const signal = events.findIndex(
    (e) =>
      e.workflowExecutionSignaledEventAttributes &&
      (!signalName || e.workflowExecutionSignaledEventAttributes.signalName === signalName),
  );
  if (signal < 0) return undefined;
  const after = events.slice(signal);
  const at = [
    events[signal],
    after.find((e) => e.workflowTaskStartedEventAttributes),
    after.find((e) => e.workflowTaskCompletedEventAttributes),
    after.find((e) => e.activityTaskStartedEventAttributes),
    after.find((e) => e.activityTaskCompletedEventAttributes),
  ].map((e) => (e ? eventMs(e) : Number.NaN));
  return at.map((t, k) => t - (k === 0 ? sentAt : at[k - 1]!));
}
