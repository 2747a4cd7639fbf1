import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { progressLine } from '../../apps/cli/commands/schedules.js';
import { readPatient, scheduleAppointment, type NewAppointment, type Patients } from '../../src/patients/patients.js';
import { patientRefreshVerificationId, patientWorkflowId } from '../../workflows/shared/ids.js';
import { refreshCoverageSignal } from '../../workflows/shared/patient-messages.js';
import { refreshTotals, type RefreshPolicy, type RefreshProgress } from '../../workflows/shared/refresh-types.js';
import { RefreshId, Tenant, VisitMonths } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import type { refreshWorkflow } from '../../workflows/refresh/index.js';
import { FAST, callerId } from '../../testing/fixtures.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

const day = (fromToday: number) => new Date(Date.now() + fromToday * 86_400_000).toISOString().slice(0, 10);

describe('refreshWorkflow: the monthly refresh of active patients', function () {
  this.timeout(120_000);
  let h: WorkflowHarness;
  let p: Patients;
  const client = () => testTemporal().client;
  before(async () => {
    h = await startWorkflowHarness();
    p = {
      client: client(),
      taskQueue: h.taskQueue,
      idKey: randomBytes(32),
      // Checks 3 days before a visit: none falls due during the test for visits 20 days or more ahead.
      policy: { offsets: [{ offsetSeconds: -3 * 86_400, reuseWithinSeconds: 3600 }] },
      verificationTiming: FAST,
    };
  });
  after(async () => h?.stop());

  const visit = (tenant: string, dateOfService: string): NewAppointment => ({
    tenant,
    patientRef: callerId('mrn'),
    patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1985', state: 'NY', memberId: 'M1234567' },
    payerId: '60054',
    dateOfService,
    specialtyCode: 'PRC',
    placeOfServiceCode: '11',
  });

  async function refresh(tenant: string, name: string, policy: Partial<RefreshPolicy> = {}): Promise<RefreshProgress> {
    return client().workflow.execute<typeof refreshWorkflow>(WorkflowType.refresh, {
      workflowId: `refresh-${tenant}-${name}`,
      taskQueue: h.taskQueue,
      args: [{ tenant, policy: { pageSize: 2, settleSeconds: 0.5, maxInFlight: 3, ...policy } }],
    });
  }

  /** Visibility has indexed every patient's visit months (it lags the patients a little). */
  const indexed = (ids: string[]) =>
    eventually(
      async () => {
        for (const id of ids) {
          const d = await client().workflow.getHandle(patientWorkflowId(id)).describe();
          if ((d.typedSearchAttributes.get(VisitMonths) ?? []).length === 0) return undefined;
        }
        await new Promise((r) => setTimeout(r, 1500));
        return true;
      },
      30_000,
      'visit months indexed',
    );

  it('verifies every active patient once (a visit in the window, past or upcoming), skips inactive ones, and counts', async () => {
    const tenant = `clinic-${randomUUID().slice(0, 8)}`;
    const upcoming = await Promise.all([1, 2, 3, 4].map(() => scheduleAppointment(p, visit(tenant, day(20)))));
    // A visit 40 days ago: its check has run, the day has passed, its month keeps the patient active.
    const past = await scheduleAppointment(p, visit(tenant, day(-40)));
    const inactive = await scheduleAppointment(p, visit(tenant, day(200)));
    const active = [...upcoming, past].map((a) => a.patientId);
    await eventually(
      async () => ((await readPatient(p, past.patientId)).appointments.length === 0 ? true : undefined),
      30_000,
      'the past visit pruned',
    );
    await indexed([...active, inactive.patientId]);

    const refreshId = `refresh-${tenant}-first`;
    const result = await refresh(tenant, 'first');
    assert.equal(result.phase, 'done');
    assert.equal(result.refreshId, refreshId);
    assert.equal(result.patients, 5);
    assert.deepEqual(refreshTotals(result.verifications!), { running: 0, verified: 5, failed: 0 });
    assert.ok(result.pages >= 3, `pages of 2: ${result.pages}`);

    for (const id of active) {
      const view = await readPatient(p, id);
      const entries = view.timeline.filter((e) => e.refreshId === refreshId);
      assert.equal(entries.length, 1, 'one verification of this refresh');
      assert.equal(entries[0]!.workflowId, patientRefreshVerificationId(id, refreshId));
      assert.equal(entries[0]!.coverage, 'covered');
    }
    const skipped = await readPatient(p, inactive.patientId);
    assert.equal(skipped.timeline.length, 0, 'an inactive patient is not verified');
    const d = await client().workflow.getHandle(patientWorkflowId(inactive.patientId)).describe();
    assert.equal(d.typedSearchAttributes.get(RefreshId), undefined);
    // The service's own record: one verification per active patient.
    for (const id of upcoming.map((a) => a.patientId)) {
      const records = (await (await fetch(`${h.sandbox.url}/sandbox/verifications?id=${id}`)).json()) as unknown[];
      assert.equal(records.length, 1);
    }

    // A repeated message of the same refresh starts nothing; a second refresh verifies again.
    const first = upcoming[0]!.patientId;
    const handle = client().workflow.getHandle(patientWorkflowId(first));
    await handle.signal(refreshCoverageSignal, { refreshId, batchId: refreshId });
    await handle.signal(refreshCoverageSignal, { refreshId, batchId: refreshId });
    const second = await refresh(tenant, 'second');
    assert.equal(second.patients, 5);
    assert.equal(refreshTotals(second.verifications!).verified, 5);
    const view = await readPatient(p, first);
    assert.equal(view.timeline.filter((e) => e.refreshId === refreshId).length, 1);
    assert.equal(view.timeline.filter((e) => e.refreshId === `refresh-${tenant}-second`).length, 1);
    assert.deepEqual(view.refreshes, [refreshId, `refresh-${tenant}-second`]);

    if (process.env.RECORD_HISTORIES === '1') {
      await recordHistory('refresh', client().workflow.getHandle(refreshId));
      await handle.terminate('history recorded');
      await recordHistory('patient-refreshed', handle);
    }
  });

  it('finds the changes the sandbox scripts between two refreshes: lost, found, payer, member id, failing', async () => {
    const tenant = `clinic-${randomUUID().slice(0, 8)}`;
    const kinds = [
      'coverage-lost',
      'coverage-found',
      'payer-changed',
      'member-id-changed',
      'verification-failing',
      'none',
    ];
    const people = kinds.map((_, i) => ({
      firstName: 'Grace',
      lastName: `Hopper${'abcdef'[i]}`,
      dateOfBirth: '12/09/1976',
    }));
    const booked = [];
    for (const person of people) {
      booked.push(await scheduleAppointment(p, { ...visit(tenant, day(25)), patient: { ...person, state: 'NY' } }));
    }
    await indexed(booked.map((b) => b.patientId));
    const control = (i: number, change: string, payerId?: string) =>
      fetch(`${h.sandbox.url}/sandbox/coverage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ patient: people[i], change, ...(payerId ? { payerId } : {}) }),
      }).then((r) => assert.equal(r.status, 200));
    await control(1, 'lose');
    const first = await refresh(tenant, 'one');
    assert.equal(refreshTotals(first.verifications!).verified, 6);
    await control(0, 'lose');
    await control(1, 'restore');
    await control(2, 'move-payer', '62308');
    await control(3, 'new-member-id');
    await control(4, 'fail');
    const second = await refresh(tenant, 'two');
    assert.deepEqual(refreshTotals(second.verifications!), { running: 0, verified: 5, failed: 1 });
    for (const [i, kind] of kinds.entries()) {
      const view = await readPatient(p, booked[i]!.patientId);
      assert.deepEqual(
        view.changes.map((c) => c.kinds),
        kind === 'none' ? [] : [[kind]],
        `patient ${i}: ${kind}`,
      );
    }
  });

  it('reports a patient that cannot answer as unanswered after stalledSeconds across continue-as-new, and verifies the others', async () => {
    const tenant = `clinic-${randomUUID().slice(0, 8)}`;
    const booked = await Promise.all([1, 2, 3].map(() => scheduleAppointment(p, visit(tenant, day(20)))));
    // A patient whose every workflow task fails (no input): listed like the others, it never takes a refresh.
    const stuck = `pt_${randomBytes(16).toString('hex')}`;
    const month = day(20).slice(0, 7);
    await client().workflow.start(WorkflowType.patient, {
      workflowId: patientWorkflowId(stuck),
      taskQueue: h.taskQueue,
      args: [],
      typedSearchAttributes: [
        { key: Tenant, value: tenant },
        { key: VisitMonths, value: [month] },
      ],
    });
    await indexed(booked.map((b) => b.patientId));

    // Continuing as new every few looks, sooner than the stall: the stall's clock goes with the run's state.
    const result = await refresh(tenant, 'stuck', { stalledSeconds: 4, continueAfterEvents: 30 });
    assert.equal(result.phase, 'done');
    assert.equal(result.patients, 3);
    assert.equal(result.unanswered, 1);
    assert.match(progressLine(result), /; 1 asked never answered \(their workflows are stuck\)$/);
    await eventually(
      async () => {
        const query = `WorkflowId = '${result.refreshId}' AND ExecutionStatus = 'ContinuedAsNew'`;
        return (await client().workflow.count(query)).count > 0 ? true : undefined;
      },
      10_000,
      'the refresh continued as new while it waited',
    );
    assert.deepEqual(refreshTotals(result.verifications!), { running: 0, verified: 3, failed: 0 });
    await client().workflow.getHandle(patientWorkflowId(stuck)).terminate('test over');
  });
});
