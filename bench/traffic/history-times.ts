import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

type Event = temporal.api.history.v1.IHistoryEvent;

const eventMs = (event: Event): number => {
  const ts = event.eventTime;
  if (!ts) return Number.NaN;
  const seconds = typeof ts.seconds === 'number' ? ts.seconds : Number(ts.seconds?.toString() ?? 0);
  return seconds * 1000 + (ts.nanos ?? 0) / 1e6;
};

/**
 * When a verification reached `created`, read from its history (server clock, this machine): the workflow task that
 * completed after its creation call returned, the one that records the stage. Undefined while it has not. Reading it
 * afterwards costs the measured run nothing (no polling of the status while it runs).
 */
export async function createdAtMs(client: Client, workflowId: string): Promise<number | undefined> {
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
  return recorded ? eventMs(recorded) : undefined;
}
