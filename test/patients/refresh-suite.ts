import { randomBytes } from 'node:crypto';
import type { NewAppointment, Patients } from '../../src/patients/patients.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import type { RefreshPolicy, RefreshProgress } from '../../workflows/refresh/refresh.js';
import { VisitMonths } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import type { refreshWorkflow } from '../../workflows/refresh/index.js';
import { FAST, callerId } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

/** A day of service `fromToday` days away, as the patients' API takes it. */
export const day = (fromToday: number) => new Date(Date.now() + fromToday * 86_400_000).toISOString().slice(0, 10);

/** What a refresh suite works with, once its `before` hook has run. */
export interface RefreshSuite {
  h: WorkflowHarness;
  p: Patients;
  visit(tenant: string, dateOfService: string): NewAppointment;
  refresh(tenant: string, name: string, policy?: Partial<RefreshPolicy>): Promise<RefreshProgress>;
  /** Visibility has indexed every patient's visit months (it lags the patients a little). */
  indexed(ids: string[]): Promise<true>;
}

/**
 * The refresh suites' harness, registered in the calling `describe`: a worker and sandbox, and patients whose checks
 * fall 3 days before a visit (none falls due during a test for visits 20 days or more ahead). The refresh's tests are
 * spread over files so that they run side by side: each waits on time-compressed days more than it computes.
 */
export function refreshSuite(): RefreshSuite {
  const client = () => testTemporal().client;
  const suite = {
    visit: (tenant: string, dateOfService: string): NewAppointment => ({
      tenant,
      patientRef: callerId('mrn'),
      patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1985', state: 'NY', memberId: 'M1234567' },
      payerId: '60054',
      dateOfService,
      specialtyCode: 'PRC',
      placeOfServiceCode: '11',
    }),
    refresh: (tenant: string, name: string, policy: Partial<RefreshPolicy> = {}) =>
      client().workflow.execute<typeof refreshWorkflow>(WorkflowType.refresh, {
        workflowId: `refresh-${tenant}-${name}`,
        taskQueue: suite.h.taskQueue,
        args: [{ tenant, policy: { pageSize: 2, settleSeconds: 0.5, maxInFlight: 3, ...policy } }],
      }),
    indexed: (ids: string[]) =>
      eventually(
        async () => {
          for (const id of ids) {
            const d = await client().workflow.getHandle(patientWorkflowId(id)).describe();
            if ((d.typedSearchAttributes.get(VisitMonths) ?? []).length === 0) return undefined;
          }
          await new Promise((r) => setTimeout(r, 1500));
          return true as const;
        },
        30_000,
        'visit months indexed',
      ),
  } as RefreshSuite;
  before(async () => {
    suite.h = await startWorkflowHarness();
    suite.p = {
      client: client(),
      taskQueue: suite.h.taskQueue,
      idKey: randomBytes(32),
      policy: { offsets: [{ offsetSeconds: -3 * 86_400, reuseWithinSeconds: 3600 }] },
      verificationTiming: FAST,
    };
  });
  after(async () => suite.h?.stop());
  return suite;
}
