import type { Client } from '@temporalio/client';
import { governorWorkflowId } from '../../workflows/governor/governor.js';

type Event = {
  eventType?: unknown;
  workflowExecutionStartedEventAttributes?: { continuedExecutionRunId?: string | null } | null;
  workflowExecutionSignaledEventAttributes?: unknown;
  markerRecordedEventAttributes?: { markerName?: string | null; workflowTaskCompletedEventId?: unknown } | null;
  upsertWorkflowSearchAttributesEventAttributes?: {
    searchAttributes?: { indexedFields?: Record<string, unknown> | null } | null;
  } | null;
  timerStartedEventAttributes?: unknown;
};

/**
 * Billed Temporal actions (testing/billed-actions.ts) of the governor of `taskQueue`, from its histories: each report (a
 * signal-with-start: 1, whether it started the run or not), each workflow task that ran its local activity (1), each
 * continue-as-new (1). Queries (people's `eligibility governor`) are not counted: they are not part of governing.
 */
export async function governorActions(client: Client, taskQueue: string): Promise<{ actions: number; runs: number }> {
  const workflowId = governorWorkflowId(taskQueue);
  let actions = 0;
  let runs = 0;
  for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    runs += 1;
    const history = await client.workflow.getHandle(workflowId, run.runId).fetchHistory();
    const events = (history.events ?? []) as Event[];
    const localActivityTasks = new Set<string>();
    for (const e of events) {
      if (e.markerRecordedEventAttributes?.markerName === 'core_local_activity') {
        localActivityTasks.add(String(e.markerRecordedEventAttributes.workflowTaskCompletedEventId));
      }
    }
    const signals = events.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
    actions += signals + localActivityTasks.size;
    // A run started by continue-as-new is one action; the first run's start is its signal-with-start's.
    if (events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId) actions += 1;
  }
  return { actions, runs };
}

/**
 * Billed actions of one verification besides its service calls (each call attempt is one more, counted by the
 * sandbox): its start, its timers and its search-attribute upserts (a `TemporalChangeVersion`-only upsert, from a
 * patch, is not billed).
 */
export async function verificationOverhead(client: Client, workflowId: string): Promise<number> {
  const events = ((await client.workflow.getHandle(workflowId).fetchHistory()).events ?? []) as Event[];
  const timers = events.filter((e) => e.timerStartedEventAttributes).length;
  const upserts = events.filter((e) => {
    const fields = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
    return fields && Object.keys(fields).some((key) => key !== 'TemporalChangeVersion');
  }).length;
  return 1 + timers + upserts;
}
