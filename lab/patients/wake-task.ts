import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';

const EventType = proto.temporal.api.enums.v1.EventType;

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;

/**
 * The workflow task a timer woke, from the workflow's history: from its start to its completion (the worker's time on
 * it, a replay included when the workflow had been evicted), and the events the history held before the timer fired.
 */
export async function wakeTask(client: Client, workflowId: string): Promise<{ taskMs: number; eventsBefore: number }> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
    const list = events ?? [];
    const fired = list.findIndex((e) => e.eventType === EventType.EVENT_TYPE_TIMER_FIRED);
    const started = list.findIndex((e, i) => i > fired && e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED);
    const completed = list.findIndex(
      (e, i) => i > started && e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
    );
    if (fired >= 0 && started >= 0 && completed >= 0) {
      return { taskMs: Math.round(ms(list[completed]!.eventTime) - ms(list[started]!.eventTime)), eventsBefore: fired };
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`${workflowId}: no task after its timer fired`);
}
