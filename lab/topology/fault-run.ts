import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCli } from '../batch/cli-child.js';
import { finished, follow } from '../batch/follow.js';
import { measureBatch, type BatchFigures } from '../batch/measure.js';
import { describeTally, tallyScenario, type ScenarioFigures } from '../faults/figures.js';
import { outageReport } from '../faults/outage.js';
import { IntakeStream } from '../faults/scenarios/intake-stream.js';
import { waitForSettled } from '../faults/settle.js';
import type { SandboxStats } from '../../src/contract/index.js';
import { backAfterRestart, createdNow, progressAfter, type FaultRecord } from './recovery.js';
import type { SupervisedProcess } from './supervised-process.js';
import type { Topology } from './topology.js';

/** What the sandbox injects for the whole batch: errors, rate limiting, lost answers, unreliable webhooks. */
export const SERVICE_FAULTS = {
  error500Rate: 0.05,
  error429Rate: 0.05,
  retryAfterSeconds: 1,
  dropResponses: 25,
  webhookDuplicateRate: 0.3,
  webhookDropRate: 0.2,
  webhookReorder: true,
} as const;

/** Every tenth row asks for a sandbox discovery first: those verifications wait for a webhook (or their polling). */
const DISCOVERY_EVERY = 10;
/** How long PostgreSQL stays stopped during its restart. */
const POSTGRES_DOWN_MS = 3000;
/** How long a component may take to serve again, and the system to create again, before the run calls it failed. */
const RECOVERY_TIMEOUT_MS = 180_000;

export interface FaultRunFigures {
  items: number;
  batch: BatchFigures;
  batchSeconds: number;
  faults: FaultRecord[];
  stream: ScenarioFigures;
  intake: ReturnType<typeof outageReport>;
  stats: SandboxStats;
  /** Exits the supervisors saw and answered with a restart, per component (the faults' own included). */
  restarts: Record<string, number>;
}

/** A CSV of `items` valid v2 rows for the sandbox's seed; every DISCOVERY_EVERY-th asks for a sandbox discovery. */
async function writeRows(dir: string, prefix: string, items: number): Promise<string> {
  const lines = [
    'id,payerId,firstName,lastName,dateOfBirth,state,memberId,placeOfServiceCode,specialtyCode,discoveryId',
  ];
  for (let i = 0; i < items; i += 1) {
    const discovery = i % DISCOVERY_EVERY === DISCOVERY_EVERY - 1;
    lines.push(
      `${prefix}-${i},${discovery ? '' : '60054'},Avery,Quinn,04/12/1987,WA,M123456,11,PHT,${discovery ? '@sandbox' : ''}`,
    );
  }
  const file = path.join(dir, `${prefix}.csv`);
  await fs.writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

/**
 * The fault run of issue 17 on the production topology: a batch of `items` submitted with `eligibility batch`, the
 * sandbox injecting SERVICE_FAULTS throughout, an intake caller sending a patient a second, and, in order at set
 * shares of the batch created, worker-1 SIGKILLed three times, the history service SIGKILLed once and PostgreSQL
 * restarted once. Killed processes are started again by their supervisors, as an orchestrator would; nothing else
 * intervenes. Then it waits for the batch to finish and counts.
 */
export async function runFaults(
  topology: Topology,
  items: number,
  log: (line: string) => void,
): Promise<FaultRunFigures> {
  const { sandboxControl: sandbox, client } = topology;
  const prefix = `topo-${randomBytes(3).toString('hex')}`;
  const file = await writeRows(topology.runDir, prefix, items);
  await sandbox.setFaults(SERVICE_FAULTS);
  const base = await createdNow(sandbox);
  const created = async () => (await createdNow(sandbox)) - base;
  const stream = new IntakeStream(topology.intakeEndpoint, `intake-${prefix}`, 1000, 240_000);
  stream.start();

  const startedAt = Date.now();
  const cli = startCli(topology.env, [
    'batch',
    file,
    '--sandbox-url',
    topology.sandboxControl.url,
    '--grace-seconds',
    '1',
  ]);
  const batchId = (await cli.waitFor(/^Batch (\S+): \d+ items submitted/m))[1]!;
  log(
    `batch ${batchId}: ${items} items submitted by \`eligibility batch\` (${((Date.now() - startedAt) / 1000).toFixed(1)} s)`,
  );

  const faults: FaultRecord[] = [];
  const strike = async (
    share: number,
    fault: string,
    component: SupervisedProcess,
    act: () => Promise<void>,
    engineDown: boolean,
  ) => {
    while ((await created()) < share * items) await sleep(200);
    const record: FaultRecord = { fault, createdAt: await created(), faultAt: Date.now(), engineDown };
    faults.push(record);
    const startsBefore = component.starts.length;
    await act();
    record.backAt = await backAfterRestart(component, startsBefore, RECOVERY_TIMEOUT_MS);
    if (record.backAt !== undefined) record.progressAt = await progressAfter(sandbox, RECOVERY_TIMEOUT_MS);
    const secs = (at: number | undefined) =>
      at === undefined ? 'never' : `+${((at - record.faultAt) / 1000).toFixed(1)} s`;
    log(
      `  ${fault} at ${record.createdAt}/${items} created: back ${secs(record.backAt)}, creating again ${secs(record.progressAt)}`,
    );
  };
  const [worker] = topology.workers;
  const { history } = topology.services;
  const kill = (p: SupervisedProcess) => async () => void (await p.kill9());
  await strike(0.1, 'worker-1 kill -9 (1)', worker!, kill(worker!), false);
  await strike(0.2, 'history kill -9', history, kill(history), true);
  await strike(0.35, 'worker-1 kill -9 (2)', worker!, kill(worker!), false);
  await strike(
    0.5,
    'PostgreSQL restart',
    topology.postgres,
    () => topology.postgres.restart('SIGINT', POSTGRES_DOWN_MS),
    true,
  );
  await strike(0.65, 'worker-1 kill -9 (3)', worker!, kill(worker!), false);

  const view = await follow(client, batchId, finished, 20 * 60_000, log);
  const batchSeconds = (Date.now() - startedAt) / 1000;
  log(`batch ${view.state} after ${batchSeconds.toFixed(0)} s; the intake caller stops`);
  await stream.finish();
  await cli.kill();
  await sandbox.setFaults({ error500Rate: 0, error429Rate: 0, dropResponses: 0 });

  const outages = faults
    .filter((f) => f.engineDown)
    .map((f) => ({ label: f.fault, downAt: f.faultAt, upAt: f.progressAt ?? f.backAt ?? Date.now() }));
  const intake = outageReport(stream.attempts, outages);
  const settled = await waitForSettled(client, stream.callerIds, { timeoutMs: 120_000, log, label: 'intake caller' });
  const tally = await tallyScenario(client, 'intake caller', settled, sandbox);
  for (const line of [...intake.lines, ...describeTally(tally, settled)]) log(line);
  const restarts = Object.fromEntries(topology.processes().map((p) => [p.name, p.restarts]));
  return {
    items,
    batch: await measureBatch(client, sandbox, batchId, `${prefix}-`),
    batchSeconds,
    faults,
    stream: { ...tally.figures, fiveXx: { whileUp: intake.whileUp, duringOutage: intake.duringOutage } },
    intake,
    stats: await sandbox.stats(),
    restarts,
  };
}
