import type { Client } from '@temporalio/client';
import type { HistoryEvent as Event } from '../../testing/billed-actions.js';
import { eventMs } from '../event-time.js';

/** Where the time to `created` went: waiting in the task queue for workflow tasks, and for activity tasks. */
export interface CreatedTimes {
  createdMs: number;
  workflowTaskQueuedMs: number;
  /** Of that, the tasks scheduled on the worker's sticky queue (every one after the first, while it stays cached). */
  stickyQueuedMs: number;
  activityQueuedMs: number;
}

/**
 * When a verification reached `created`, read from its history (server clock, this machine): the workflow task that
 * completed after its creation call returned, the one that records the stage. Undefined while it has not. Reading it
 * afterwards costs the measured run nothing (no polling of the status while it runs).
 */
export async function createdTimes(client: Client, workflowId: string): Promise<CreatedTimes | undefined> {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const creation = events.find(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'createVerificationV2',
  );
  if (!creation) return undefined;
  const creationId = Number(creation.eventId?.toString());
  const returned = events.findIndex(
    (e) => Number(e.activityTaskCompletedEventAttributes?.scheduledEventId?.toString()) === creationId,
  );
  if (returned < 0) return undefined;
  const recorded = events.slice(returned).find((e) => e.workflowTaskCompletedEventAttributes);
  if (!recorded) return undefined;
  const until = events.slice(0, events.indexOf(recorded));
  const queued = (started: (e: Event) => number | undefined, only: (scheduled: Event) => boolean = () => true) =>
    until.reduce((sum, e) => {
      const scheduledId = started(e);
      const scheduled = until.find((s) => Number(s.eventId?.toString()) === scheduledId);
      return scheduled && only(scheduled) ? sum + eventMs(e) - eventMs(scheduled) : sum;
    }, 0);
  // TASK_QUEUE_KIND_STICKY = 2
  const sticky = (e: Event) => Number(e.workflowTaskScheduledEventAttributes?.taskQueue?.kind) === 2;
  return {
    createdMs: eventMs(recorded),
    workflowTaskQueuedMs: queued((e) => num(e.workflowTaskStartedEventAttributes?.scheduledEventId)),
    stickyQueuedMs: queued((e) => num(e.workflowTaskStartedEventAttributes?.scheduledEventId), sticky),
    activityQueuedMs: queued((e) => num(e.activityTaskStartedEventAttributes?.scheduledEventId)),
  };
}

const num = (value: { toString(): string } | null | undefined) =>
  value == null ? undefined : Number(value.toString());
