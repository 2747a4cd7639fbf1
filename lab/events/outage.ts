import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { stageEvent } from '../../workflows/shared/event-catalogue.js';
import { VerificationStage } from '../../workflows/shared/search-attributes.js';
import { indexedStage } from '../../src/temporal/workflow-ending.js';
import type { Stage } from '../../workflows/shared/stages.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { callIntake } from '../faults/intake-http.js';
import { requestFor } from '../faults/rows.js';
import type { FaultStack } from '../faults/stack.js';
import { duplicates, firstArrivals, outOfOrder, pairOf, subscribe } from './receiving.js';
import { until } from '../until.js';

export interface OutageOptions {
  rows: number;
  downSeconds: number;
  /** The worker SIGKILLed twice and the Temporal server restarted once during deliveries. */
  faults: boolean;
  /** How long after the endpoint is back every event may take before the missing ones count as lost. */
  drainTimeoutSeconds: number;
}

export interface OutageFigures {
  label: string;
  outcomes: Record<string, number>;
  expected: number;
  delivered: number;
  lost: number;
  unexpected: number;
  deliveries: number;
  redeliveries: number;
  doubleEvents: number;
  changedBodies: number;
  verified: number;
  refused: number;
  outOfOrder: number;
  deliveredBeforeDown: number;
  deliveredWhileDown: number;
  /** From the endpoint's return to the first delivery it answered, and to the last expected event's first arrival. */
  firstAfterBackMs: number | undefined;
  lastAfterBackMs: number | undefined;
  /** Events first delivered after the return (the backlog). */
  deliveredAfterBack: number;
  attempts: { delivered: number; failed: number };
  faultsDone: string[];
}

/** What each verification's outcome implies (the catalogue), and the batch's two events. */
async function expectedPairs(stack: FaultStack, batchId: string) {
  const pairs = new Set<string>([`batch:${batchId}|batch.settled`, `batch:${batchId}|batch.finished`]);
  const outcomes: Record<string, number> = {};
  const query = `WorkflowType = '${WorkflowType.verification}' AND BatchId = '${batchId}'`;
  for await (const info of stack.client.workflow.list({ query })) {
    const stage = (indexedStage(info.status.name, info.typedSearchAttributes.get(VerificationStage)) ??
      'unknown') as Stage;
    const key = `${info.status.name} ${stage}`;
    outcomes[key] = (outcomes[key] ?? 0) + 1;
    // Every row is a patient the sandbox's seed verifies: created, then completed. Another ending implies its own event.
    if (stage === 'completed') pairs.add(`${info.workflowId}|verification.created`);
    const type = stageEvent(stage);
    if (type) pairs.add(`${info.workflowId}|${type}`);
  }
  return { pairs, outcomes };
}

/**
 * Issue 34's outage: a batch of `rows` verifications for a tenant with one endpoint; once half of them are created the
 * endpoint goes down (its port closed: connection refused) for `downSeconds`, then comes back on the same port. With
 * `faults`, the worker is SIGKILLed at a quarter created and again just after the endpoint is back, and the Temporal
 * server is stopped for 7 s in the middle of the outage, while the dispatcher retries. Every event the outcomes imply
 * must arrive, verified, under one webhook-id each.
 */
export async function outageScenario(
  stack: FaultStack,
  o: OutageOptions,
  log: (line: string) => void,
): Promise<OutageFigures> {
  const label = o.faults ? 'outage + 2 worker kills + Temporal restart' : 'outage';
  const run = randomBytes(3).toString('hex');
  const tenant = `outage-${run}`;
  const batchId = `events-outage-${run}`;
  const sink = await subscribe(stack, tenant);
  const { receiver } = sink;
  const port = receiver.port;
  const faultsDone: string[] = [];
  const t0 = Date.now();
  const at = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
  const createdCount = () =>
    new Set(receiver.received.filter((r) => r.event.type === 'verification.created').map((r) => pairOf(r))).size;

  const items = Array.from({ length: o.rows }, (_, i) => requestFor('v2', `${batchId}-${i}`));
  const submitted = await callIntake(stack.intake, 'POST', '/batches', { items, tenant, batchId });
  if (submitted.status !== 202) throw new Error(`POST /batches: ${submitted.status} ${JSON.stringify(submitted.body)}`);
  log(`  [${at()}] batch ${batchId} of ${o.rows} submitted`);

  const far = Date.now() + 30 * 60_000;
  if (o.faults) {
    await until(() => createdCount() >= o.rows / 4, far);
    await stack.worker.kill();
    const ms = await stack.worker.start();
    faultsDone.push(`worker SIGKILLed at ${createdCount()} created (polling again after ${(ms / 1000).toFixed(1)} s)`);
    log(`  [${at()}] ${faultsDone.at(-1)}`);
  }
  await until(() => createdCount() >= o.rows / 2, far);
  const deliveredBeforeDown = firstArrivals(receiver.received).length;
  await receiver.stop();
  const downAt = Date.now();
  log(`  [${at()}] endpoint DOWN at ${createdCount()} created, for ${o.downSeconds} s`);
  if (o.faults) {
    await sleep(Math.max(0, (o.downSeconds * 1000) / 2 - 3500));
    await stack.temporal.down();
    await sleep(7000);
    await stack.temporal.up();
    const restarted = await stack.worker.ensureRunning();
    faultsDone.push(
      `Temporal stopped 7 s while the endpoint was down${restarted ? ' (the worker exited; restarted)' : ''}`,
    );
    log(`  [${at()}] ${faultsDone.at(-1)}`);
  }
  await sleep(Math.max(0, downAt + o.downSeconds * 1000 - Date.now()));
  const receivedWhileDown = receiver.received.length;
  await receiver.start(port);
  const upAt = Date.now();
  log(`  [${at()}] endpoint UP again on port ${port}`);
  if (o.faults) {
    await until(() => receiver.received.length > receivedWhileDown, far, 50);
    await sleep(1000);
    await stack.worker.kill();
    const ms = await stack.worker.start();
    faultsDone.push(
      `worker SIGKILLed 1 s after the first redelivery (${receiver.received.length - receivedWhileDown} received ` +
        `since the return; polling again after ${(ms / 1000).toFixed(1)} s)`,
    );
    log(`  [${at()}] ${faultsDone.at(-1)}`);
  }

  // Done when the batch has finished and every event its verifications' outcomes imply has arrived.
  const deadline = upAt + o.drainTimeoutSeconds * 1000;
  let expected: Awaited<ReturnType<typeof expectedPairs>> | undefined;
  const arrived = () => new Set(receiver.received.map((r) => pairOf(r)));
  await until(async () => {
    const got = arrived();
    if (!expected && got.has(`batch:${batchId}|batch.finished`)) expected = await expectedPairs(stack, batchId);
    return expected !== undefined && [...expected.pairs].every((p) => got.has(p));
  }, deadline);
  expected ??= await expectedPairs(stack, batchId);
  // Late redeliveries (an attempt whose answer was lost to a kill) still count as duplicates.
  await sleep(3000);
  await receiver.stop();

  const firsts = firstArrivals(receiver.received);
  const got = new Set(firsts.map((r) => pairOf(r)));
  const afterBack = firsts.filter((r) => r.at >= upAt);
  const lastExpected = Math.max(...firsts.filter((r) => expected!.pairs.has(pairOf(r))).map((r) => r.at));
  const attempts = await sql<{ status: string; n: number }>`
    select status, count(*)::int as n from event_deliveries where endpoint_id = ${sink.endpointId} group by status
  `.execute(stack.store!.db);
  const byStatus = Object.fromEntries(attempts.rows.map((r) => [r.status, r.n]));
  return {
    label,
    outcomes: expected.outcomes,
    expected: expected.pairs.size,
    delivered: [...expected.pairs].filter((p) => got.has(p)).length,
    lost: [...expected.pairs].filter((p) => !got.has(p)).length,
    unexpected: [...got].filter((p) => !expected!.pairs.has(p)).length,
    deliveries: receiver.received.length,
    ...duplicates(receiver.received),
    verified: sink.verified,
    refused: sink.refused,
    outOfOrder: outOfOrder(receiver.received),
    deliveredBeforeDown,
    deliveredWhileDown:
      receivedWhileDown - receiver.received.slice(0, receivedWhileDown).filter((r) => r.at < downAt).length,
    firstAfterBackMs: afterBack.length > 0 ? Math.min(...afterBack.map((r) => r.at)) - upAt : undefined,
    lastAfterBackMs: lastExpected >= upAt ? lastExpected - upAt : undefined,
    deliveredAfterBack: afterBack.length,
    attempts: { delivered: byStatus.delivered ?? 0, failed: byStatus.failed ?? 0 },
    faultsDone,
  };
}
