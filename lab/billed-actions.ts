import type { temporal } from '@temporalio/proto';

export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * Billed Temporal Cloud actions of one history, as Temporal Cloud counts them: the start (continue-as-new too),
 * every activity attempt, timer, search-attribute upsert, signal received and update accepted, and one for each
 * workflow task that recorded local activities. A signal is counted where it is received, so a sender's
 * `SignalExternalWorkflowExecutionInitiated` is not counted again.
 */
export function billedActions(events: readonly HistoryEvent[]): number {
  return localActivityTasks(events) + otherActions(events);
}

/** Workflow tasks whose commands recorded one local activity or more (markers): one billed action each. */
export function localActivityTasks(events: readonly HistoryEvent[]): number {
  let tasks = 0;
  let counted = false;
  for (const e of events) {
    if (e.workflowTaskCompletedEventAttributes) counted = false;
    if (e.markerRecordedEventAttributes && !counted) {
      tasks += 1;
      counted = true;
    }
  }
  return tasks;
}

function otherActions(events: readonly HistoryEvent[]): number {
  let actions = 0;
  for (const e of events) {
    if (e.workflowExecutionStartedEventAttributes) actions += 1;
    if (e.activityTaskStartedEventAttributes) actions += e.activityTaskStartedEventAttributes.attempt ?? 1;
    if (e.timerStartedEventAttributes) actions += 1;
    if (e.upsertWorkflowSearchAttributesEventAttributes) actions += 1;
    if (e.workflowExecutionSignaledEventAttributes) actions += 1;
    if (e.workflowExecutionUpdateAcceptedEventAttributes) actions += 1;
  }
  return actions;
}

/** An event's time (server clock), in epoch milliseconds. */
export function eventMs(event: HistoryEvent): number {
  const ts = event.eventTime;
  if (!ts) return Number.NaN;
  const seconds = typeof ts.seconds === 'number' ? ts.seconds : Number(ts.seconds?.toString() ?? 0);
  return seconds * 1000 + (ts.nanos ?? 0) / 1e6;
}
