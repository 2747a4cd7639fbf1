import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeTally, tallyScenario, type ScenarioFigures } from '../figures.js';
import { alternating, callerIdsOf, scenarioRows, startBatch } from '../rows.js';
import { waitForSettled } from '../settle.js';
import type { FaultStack } from '../stack.js';

export const KILL_ROWS = 400;
export const KILLS = 3;
/** Every service call takes this long, so a kill always finds calls in flight. */
const LATENCY_MS = 200;

/** Waits until the sandbox has created `target` verifications in all, at most `timeoutMs`; false if it never did. */
async function createdReaches(stack: FaultStack, target: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await stack.sandbox.stats()).verificationsCreated >= target) return true;
    await sleep(100);
  }
  return false;
}

/**
 * A 400-row batch (v1 and v2 alternating) with the worker SIGKILLed at a quarter, half and three quarters of the
 * verifications created, and started again each time. Calls in flight at a kill reached the service, but their
 * answer died with the worker: Temporal retries them after the activity's start-to-close timeout.
 */
export async function workerKills(stack: FaultStack, log: (line: string) => void): Promise<ScenarioFigures> {
  const rows = scenarioRows(`kill-${randomBytes(3).toString('hex')}`, alternating(KILL_ROWS));
  const base = (await stack.sandbox.stats()).verificationsCreated;
  await stack.sandbox.setFaults({ latencyMs: LATENCY_MS });
  try {
    const batch = startBatch(stack.client, stack.config.temporal.taskQueue, rows);
    for (let kill = 1; kill <= KILLS; kill += 1) {
      const target = base + Math.round((kill * KILL_ROWS) / (KILLS + 1));
      const reached = await createdReaches(stack, target, 120_000);
      const created = (await stack.sandbox.stats()).verificationsCreated - base;
      const pid = stack.worker.pid;
      await stack.worker.kill();
      log(
        `  kill ${kill}: worker pid ${pid} SIGKILLed at ${created}/${KILL_ROWS} created${reached ? '' : ' (batch stalled)'}`,
      );
      const readyMs = await stack.worker.start();
      log(`  kill ${kill}: worker restarted (pid ${stack.worker.pid}), polling after ${(readyMs / 1000).toFixed(1)} s`);
    }
    log(`  batch: ${await batch}`);
  } finally {
    await stack.sandbox.setFaults({ latencyMs: 0 });
  }
  // A call lost with a killed worker is retried only after its start-to-close timeout (45 s).
  const settled = await waitForSettled(stack.client, callerIdsOf(rows), {
    timeoutMs: 180_000,
    log,
    label: 'worker kills',
  });
  const tally = await tallyScenario(stack.client, `worker SIGKILL x${KILLS}`, settled, stack.sandbox);
  for (const line of describeTally(tally, settled)) log(line);
  return tally.figures;
}
