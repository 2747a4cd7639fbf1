import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeTally, tallyScenario, type ScenarioFigures } from '../figures.js';
import { outageReport } from '../outage.js';
import { alternating, callerIdsOf, scenarioRows, startBatch } from '../rows.js';
import { waitForSettled } from '../settle.js';
import type { FaultStack } from '../stack.js';
import { IntakeStream } from './intake-stream.js';

export const RESTART_ROWS = 120;
export const DOWN_MS = 7000;
/** Slow service calls, so creations are in flight when Temporal goes down. */
const LATENCY_MS = 300;
/** The intake caller keeps sending new patients this long after Temporal is back. */
const AFTER_RESTART_MS = 20_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * A batch in flight (v1 and v2 alternating, started as `eligibility batch` does) and an intake caller sending a patient
 * every half second, while Temporal is stopped for about 7 s and started again on the same database and port.
 */
export async function temporalRestart(stack: FaultStack, log: (line: string) => void): Promise<ScenarioFigures> {
  const tag = randomBytes(3).toString('hex');
  const rows = scenarioRows(`restart-${tag}`, alternating(RESTART_ROWS));
  const stream = new IntakeStream(stack.intake, `stream-${tag}`, 500, 150_000);
  const base = (await stack.sandbox.stats()).verificationsCreated;
  await stack.sandbox.setFaults({ latencyMs: LATENCY_MS });
  let downAt: number;
  let upAt: number;
  try {
    stream.start();
    log(`  batch: ${await startBatch(stack.client, stack.config.temporal.taskQueue, rows)}`);
    for (let i = 0; i < 300 && (await stack.sandbox.stats()).verificationsCreated - base < RESTART_ROWS / 4; i += 1) {
      await sleep(100);
    }
    const created = (await stack.sandbox.stats()).verificationsCreated - base;
    downAt = Date.now();
    await stack.temporal.down();
    const stoppedAt = Date.now();
    log(`  Temporal stopped at ${created} created (SIGTERM; exited after ${seconds(stoppedAt - downAt)})`);
    await sleep(DOWN_MS);
    await stack.temporal.up();
    upAt = Date.now();
    log(
      `  Temporal serving again on ${stack.temporal.address} after ${seconds(DOWN_MS)} not running` +
        ` (${seconds(upAt - downAt)} from the stop to serving)`,
    );
    await sleep(5000);
    if (await stack.worker.ensureRunning()) log('  the worker had exited during the outage: started again');
    else log('  the worker survived the outage');
    await sleep(Math.max(0, upAt + AFTER_RESTART_MS - Date.now()));
    await stream.finish();
  } finally {
    await stack.sandbox.setFaults({ latencyMs: 0 });
  }
  const report = outageReport(stream.attempts, [{ label: 'the restart', downAt, upAt }]);
  for (const line of report.lines) log(line);
  const callerIds = [...callerIdsOf(rows), ...stream.callerIds];
  const settled = await waitForSettled(stack.client, callerIds, { timeoutMs: 150_000, log, label: 'Temporal restart' });
  const tally = await tallyScenario(stack.client, `Temporal restart (${DOWN_MS / 1000} s)`, settled, stack.sandbox);
  for (const line of describeTally(tally, settled)) log(line);
  return { ...tally.figures, fiveXx: { whileUp: report.whileUp, duringOutage: report.duringOutage } };
}
