import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { forEachLimited } from '../bench-stack.js';
import { callIntake, type IntakeEndpoint } from '../faults/intake-http.js';
import { requestFor } from '../faults/rows.js';
import { percentile } from '../traffic/lanes-stack.js';

export interface Spread {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

export const spread = (values: number[]): Spread => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  max: values.length ? Math.max(...values) : Number.NaN,
  n: values.length,
});

export interface PacedStarts {
  /** Workflow ids of the verifications the intake API accepted. */
  ids: string[];
  refused: number;
  startedAt: number;
  achievedRate: number;
}

/**
 * `rate` verifications a second for `seconds` of `tenant` through `POST /verifications`, each sent on its schedule
 * whatever the answers before it (the intake API's starts are what a client does; a slow worker does not slow them).
 */
export async function startPaced(
  intake: IntakeEndpoint,
  o: { tenant: string; prefix: string; rate: number; seconds: number },
): Promise<PacedStarts> {
  const count = Math.round(o.rate * o.seconds);
  const ids: string[] = [];
  let refused = 0;
  const startedAt = Date.now();
  const starts: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    await sleep(Math.max(0, startedAt + (i * 1000) / o.rate - Date.now()));
    starts.push(
      callIntake(intake, 'POST', '/verifications', { ...requestFor('v2', `${o.prefix}-${i}`), tenant: o.tenant }).then(
        (answer) => {
          if (answer.status === 202) ids.push((answer.body as { workflowId: string }).workflowId);
          else refused += 1;
        },
      ),
    );
  }
  await Promise.all(starts);
  return { ids, refused, startedAt, achievedRate: count / ((Date.now() - startedAt) / 1000) };
}

export interface Completion {
  completed: number;
  failed: number;
  /** Verifications completed a second: how many, over the first start to the last close (Temporal's times). */
  perSecond: number;
  /** Each verification's start to its close. */
  startToClose: Spread;
}

/** Waits for every verification to close, then reads its start and close times (after the run: no load meanwhile). */
export async function completion(client: Client, ids: readonly string[]): Promise<Completion> {
  let failed = 0;
  const spans: { start: number; close: number }[] = [];
  await forEachLimited(ids.length, 32, async (i) => {
    const handle = client.workflow.getHandle(ids[i]!);
    try {
      await handle.result();
    } catch {
      failed += 1;
      return;
    }
    const d = await handle.describe();
    spans.push({ start: d.startTime.getTime(), close: (d.closeTime ?? new Date()).getTime() });
  });
  const first = Math.min(...spans.map((s) => s.start));
  const last = Math.max(...spans.map((s) => s.close));
  return {
    completed: spans.length,
    failed,
    perSecond: spans.length / ((last - first) / 1000),
    startToClose: spread(spans.map((s) => s.close - s.start)),
  };
}
