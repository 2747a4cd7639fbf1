import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { freePort } from '../../src/free-port.js';
import { scheduleAppointment, type Patients } from '../../src/patients/patients.js';
import { refreshScheduleId } from '../../workflows/shared/ids.js';
import { refreshProgressQuery } from '../../workflows/refresh/refresh.js';
import type { RefreshProgress, RefreshWorkflowInput } from '../../workflows/refresh/refresh.js';
import { putRefreshSchedule } from '../../src/schedules/refresh-schedules.js';
import { forEachLimited, startBenchStack, type BenchStack } from '../bench-stack.js';
import { WorkerChild } from '../faults/worker-child.js';

/** What the refresh benchmarks share: a bench stack, one `eligibility worker` child, and patients booked on it. */
export interface RefreshStack {
  stack: BenchStack;
  worker: WorkerChild;
  patients: Patients;
  tenant: string;
  stop(): Promise<void>;
}

export async function startRefreshStack(extraEnv: Record<string, string> = {}): Promise<RefreshStack> {
  const stack = await startBenchStack();
  const worker = new WorkerChild({
    ...stack.workerEnv,
    WORKER_HTTP_PORT: String(await freePort()),
    WORKER_SHUTDOWN_GRACE_SECONDS: '0',
    ...extraEnv,
  });
  await worker.start();
  const patients: Patients = {
    client: stack.client,
    taskQueue: stack.taskQueue,
    idKey: randomBytes(32),
    // One check 3 days before each visit: visits 20 days or more ahead hold no check during the run.
    policy: { offsets: [{ offsetSeconds: -3 * 86_400, reuseWithinSeconds: 3600 }] },
    verificationTiming: { graceSeconds: 0.2 },
  };
  return {
    stack,
    worker,
    patients,
    tenant: `clinic-${randomBytes(3).toString('hex')}`,
    async stop() {
      await worker.stop();
      await stack.stop();
    },
  };
}

export const day = (fromToday: number) => new Date(Date.now() + fromToday * 86_400_000).toISOString().slice(0, 10);

/** Books one appointment per patient `i` of `count` on `dateOfService`; answers their patient ids in order. */
export async function bookPatients(
  s: RefreshStack,
  prefix: string,
  count: number,
  dateOfService: string,
  person: (i: number) => { firstName: string; lastName: string; dateOfBirth: string } = (i) => ({
    firstName: 'Bench',
    lastName: `Patient${prefix}${i}`,
    dateOfBirth: '01/02/1980',
  }),
): Promise<string[]> {
  const ids: string[] = Array.from({ length: count }, () => '');
  await forEachLimited(count, 40, async (i) => {
    const { patientId } = await scheduleAppointment(s.patients, {
      tenant: s.tenant,
      patientRef: `${prefix}-${i}`,
      patient: { ...person(i), state: 'NY', memberId: 'M1' },
      payerId: '60054',
      dateOfService,
      specialtyCode: 'PRC',
      placeOfServiceCode: '11',
    });
    ids[i] = patientId;
  });
  return ids;
}

/** Waits until visibility counts `expected` running patients of the tenant with visit months. */
export async function waitIndexed(client: Client, tenant: string, expected: number): Promise<void> {
  const query = `WorkflowType = "patientWorkflow" AND ExecutionStatus = "Running" AND Tenant = "${tenant}" AND VisitMonths IS NOT NULL`;
  for (;;) {
    if ((await client.workflow.count(query)).count >= expected) return;
    await sleep(1000);
  }
}

/** Creates the tenant's schedule (paused: the benchmark triggers it) and triggers one refresh; answers its id. */
export async function triggerRefresh(
  s: RefreshStack,
  policy: RefreshWorkflowInput['policy'],
  previous?: string,
): Promise<string> {
  const { client } = s.stack;
  await putRefreshSchedule(client, s.stack.taskQueue, {
    tenant: s.tenant,
    everySeconds: 86_400,
    jitterSeconds: 0,
    paused: true,
    policy,
  });
  const handle = client.schedule.getHandle(refreshScheduleId(s.tenant));
  await handle.trigger();
  for (;;) {
    const actions = (await handle.describe()).info.recentActions;
    const latest = actions.at(-1)?.action.workflow.workflowId;
    if (latest && latest !== previous) return latest;
    await sleep(250);
  }
}

export async function refreshProgress(client: Client, refreshId: string): Promise<RefreshProgress | undefined> {
  try {
    return await client.workflow.getHandle(refreshId).query(refreshProgressQuery);
  } catch {
    return undefined;
  }
}

/** Verifications the sandbox created, per caller id (`id`): its own record, not the product's view. */
export async function sandboxVerificationsById(sandboxUrl: string): Promise<Map<string, number>> {
  const records = (await (await fetch(`${sandboxUrl}/sandbox/verifications`)).json()) as { id?: string }[];
  const byId = new Map<string, number>();
  for (const r of records) if (r.id) byId.set(r.id, (byId.get(r.id) ?? 0) + 1);
  return byId;
}
