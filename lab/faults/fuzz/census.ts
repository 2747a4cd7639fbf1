import type { Client } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Every workflow execution on a task queue, by workflow id (a count above 1 is a second run under the same id),
 * read from visibility once its count has stopped growing: visibility trails the starts by a moment.
 */
export async function workflowsOnQueue(
  client: Client,
  taskQueue: string,
  atLeast: number,
  timeoutMs: number,
): Promise<Map<string, number>> {
  const query = `TaskQueue = "${taskQueue}"`;
  const deadline = Date.now() + timeoutMs;
  let previous = -1;
  for (;;) {
    const { count } = await client.workflow.count(query);
    if ((count === previous && count >= atLeast) || Date.now() > deadline) break;
    previous = count;
    await sleep(2000);
  }
  const executions = new Map<string, number>();
  for await (const workflow of client.workflow.list({ query, pageSize: 1000 })) {
    executions.set(workflow.workflowId, (executions.get(workflow.workflowId) ?? 0) + 1);
  }
  return executions;
}
