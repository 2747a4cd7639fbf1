import { randomBytes } from 'node:crypto';
import { describeTally, tallyScenario, type ScenarioFigures } from '../figures.js';
import { callerIdsOf, scenarioRows, startBatch, type Version } from '../rows.js';
import { waitForSettled } from '../settle.js';
import type { FaultStack } from '../stack.js';

export const DROPPED_ROWS = 20;
export const DROPPED_RESPONSES = 5;

export interface DroppedResult {
  figures: ScenarioFigures;
  /** Creation responses the sandbox actually dropped: each one an outcome the caller could not know. */
  dropped: number;
}

/**
 * 20 rows of one version while the sandbox drops 5 creation responses after processing them (the connection closes
 * without an answer): v2 must get the same verification back through its idempotency key; v1, which has none, must
 * not create a second one.
 */
export async function droppedResponses(stack: FaultStack, version: Version, log: (line: string) => void) {
  const rows = scenarioRows(`drop-${version}-${randomBytes(3).toString('hex')}`, Array(DROPPED_ROWS).fill(version));
  const before = await stack.sandbox.stats();
  await stack.sandbox.setFaults({ dropResponses: DROPPED_RESPONSES });
  try {
    log(`  batch: ${await startBatch(stack.client, stack.config.temporal.taskQueue, rows)}`);
    const settled = await waitForSettled(stack.client, callerIdsOf(rows), {
      timeoutMs: 120_000,
      log,
      label: `dropped responses ${version}`,
    });
    const dropped = (await stack.sandbox.stats()).responsesDropped - before.responsesDropped;
    const left = (await stack.sandbox.faults()).dropResponses;
    log(`  sandbox: ${dropped} creation responses dropped (${left} of the ${DROPPED_RESPONSES} never used)`);
    const tally = await tallyScenario(stack.client, `dropped responses ${version}`, settled, stack.sandbox);
    for (const line of describeTally(tally, settled)) log(line);
    return { figures: tally.figures, dropped } satisfies DroppedResult;
  } finally {
    await stack.sandbox.setFaults({ dropResponses: 0 });
  }
}
