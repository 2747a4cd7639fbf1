import type { temporal } from '@temporalio/proto';

export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * A history's billed Temporal Cloud actions by kind, as its actions page lists them (a type, not an interface, so that
 * `Object.values` sees numbers).
 */
export type BilledActions = {
  /** The workflow's own start, unless a parent or an earlier run began it (counted there). */
  start: number;
  /** Every attempt of every activity: a retry is billed like a start. */
  activityAttempts: number;
  /** One per workflow task that recorded local activities, however many it ran. */
  localActivityTasks: number;
  timers: number;
  /** Search-attribute upserts; attributes set at the start are free, and so is a memo upsert. */
  upserts: number;
  /** Signals received; a sender's `SignalExternalWorkflowExecutionInitiated` is the same action. */
  signals: number;
  /** Updates accepted. */
  updates: number;
  /** Two per child started: the child's start and its execution, so the child's history counts no start. */
  childWorkflows: number;
  /** The next run's start, begun by this run's continue-as-new (or its cron or retry). */
  nextRuns: number;
};

export interface HistoryCost {
  actions: number;
  byKind: BilledActions;
  /** Completed workflow tasks: each is a round trip to a worker and an activation of the workflow. */
  workflowTasks: number;
}

const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

/**
 * What one run's history costs in billed actions and workflow tasks. Queries, heartbeats, rejected updates and a
 * Schedule's own actions leave no event, so no history shows them; a signal-with-start is billed once but reads as a
 * start and a signal here (the history does not say which start came with a signal).
 */
export function historyCost(events: readonly HistoryEvent[]): HistoryCost {
  const byKind: BilledActions = {
    start: 0,
    activityAttempts: 0,
    localActivityTasks: localActivityTasks(events),
    timers: 0,
    upserts: 0,
    signals: 0,
    updates: 0,
    childWorkflows: 0,
    nextRuns: 0,
  };
  let workflowTasks = 0;
  for (const e of events) {
    const started = e.workflowExecutionStartedEventAttributes;
    if (started && !started.parentWorkflowExecution && !started.continuedExecutionRunId) byKind.start += 1;
    if (e.activityTaskStartedEventAttributes)
      byKind.activityAttempts += e.activityTaskStartedEventAttributes.attempt ?? 1;
    if (e.timerStartedEventAttributes) byKind.timers += 1;
    if (e.upsertWorkflowSearchAttributesEventAttributes) byKind.upserts += 1;
    if (e.workflowExecutionSignaledEventAttributes) byKind.signals += 1;
    if (e.workflowExecutionUpdateAcceptedEventAttributes) byKind.updates += 1;
    if (e.startChildWorkflowExecutionInitiatedEventAttributes) byKind.childWorkflows += 2;
    if (closingEvent(e)?.newExecutionRunId) byKind.nextRuns += 1;
    if (e.workflowTaskCompletedEventAttributes) workflowTasks += 1;
  }
  const actions = Object.values(byKind).reduce((sum, n) => sum + n, 0);
  return { actions, byKind, workflowTasks };
}

/** A history's billed actions in all (`historyCost` says of which kinds). */
export function billedActions(events: readonly HistoryEvent[]): number {
  return historyCost(events).actions;
}

/** Workflow tasks whose commands recorded one local activity or more: Temporal Cloud bills each once. */
export function localActivityTasks(events: readonly HistoryEvent[]): number {
  let tasks = 0;
  let counted = false;
  for (const e of events) {
    if (e.workflowTaskCompletedEventAttributes) counted = false;
    if (e.markerRecordedEventAttributes?.markerName === LOCAL_ACTIVITY_MARKER && !counted) {
      tasks += 1;
      counted = true;
    }
  }
  return tasks;
}

function closingEvent(e: HistoryEvent) {
  return (
    e.workflowExecutionContinuedAsNewEventAttributes ??
    e.workflowExecutionCompletedEventAttributes ??
    e.workflowExecutionFailedEventAttributes ??
    e.workflowExecutionTimedOutEventAttributes
  );
}
