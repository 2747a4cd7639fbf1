/** Front-desk check-ins submitted through the intake API and their time to `created`, for the traffic benches. */
import { setTimeout as sleep } from 'node:timers/promises';
import { createdTimes, type CreatedTimes } from './history-times.js';
import { benchRequest, type LanesStack } from './lanes-stack.js';

export interface Submitted {
  workflowId: string;
  atMs: number;
  /** How long the intake API took to answer the start. */
  startMs: number;
}

export interface Figures {
  createdMs: number[];
  /** Of each: how long its workflow tasks and its activity tasks waited in the task queue. */
  queued: { start: number; workflowTasks: number; sticky: number; activities: number }[];
  notCreated: number;
}

/** Submits `count` check-ins `intervalMs` apart; `during(i)` runs after the i-th submission (not awaited by it). */
export async function checkIns(
  lanes: LanesStack,
  tag: string,
  count: number,
  intervalMs: number,
  during?: (i: number) => void,
) {
  const submitted: Submitted[] = [];
  const t0 = Date.now();
  for (let i = 0; i < count; i += 1) {
    await sleep(Math.max(0, t0 + i * intervalMs - Date.now()));
    const atMs = Date.now();
    const answer = await lanes.intake('POST', '/verifications', benchRequest(`${tag}-${i}`));
    if (answer.status !== 202) throw new Error(`check-in ${i}: ${answer.status} ${JSON.stringify(answer.body)}`);
    submitted.push({ workflowId: (answer.body as { workflowId: string }).workflowId, atMs, startMs: answer.ms });
    during?.(i);
  }
  return submitted;
}

/** Waits (up to `timeoutMs`) for every submitted check-in to reach `created`, then reads the times. */
export async function timesToCreated(lanes: LanesStack, submitted: Submitted[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const figures: Figures = { createdMs: [], queued: [], notCreated: 0 };
  for (const { workflowId, atMs, startMs } of submitted) {
    let created: CreatedTimes | undefined;
    while ((created = await createdTimes(lanes.stack.client, workflowId)) === undefined && Date.now() < deadline) {
      await sleep(500);
    }
    if (created === undefined) figures.notCreated += 1;
    else {
      figures.createdMs.push(created.createdMs - atMs);
      figures.queued.push({
        start: startMs,
        workflowTasks: created.workflowTaskQueuedMs,
        sticky: created.stickyQueuedMs,
        activities: created.activityQueuedMs,
      });
    }
  }
  return figures;
}
