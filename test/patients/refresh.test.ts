import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readPatient, scheduleAppointment } from '../../src/patients/patients.js';
import { patientRefreshVerificationId, patientWorkflowId } from '../../workflows/shared/ids.js';
import { refreshCoverageSignal } from '../../workflows/patient/patient.js';
import { refreshTotals } from '../../workflows/refresh/refresh.js';
import { RefreshId } from '../../workflows/shared/search-attributes.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';
import { day, refreshSuite } from './refresh-suite.js';

describe('refreshWorkflow: the monthly refresh of active patients', function () {
  this.timeout(120_000);
  const s = refreshSuite();
  const client = () => testTemporal().client;

  it('verifies every active patient once (a visit in the window, past or upcoming), skips inactive ones, and counts', async () => {
    const tenant = `clinic-${randomUUID().slice(0, 8)}`;
    const upcoming = await Promise.all([1, 2, 3, 4].map(() => scheduleAppointment(s.p, s.visit(tenant, day(20)))));
    // A visit 40 days ago: its check has run, the day has passed, its month keeps the patient active.
    const past = await scheduleAppointment(s.p, s.visit(tenant, day(-40)));
    const inactive = await scheduleAppointment(s.p, s.visit(tenant, day(200)));
    const active = [...upcoming, past].map((a) => a.patientId);
    await eventually(
      async () => ((await readPatient(s.p, past.patientId)).appointments.length === 0 ? true : undefined),
      30_000,
      'the past visit pruned',
    );
    await s.indexed([...active, inactive.patientId]);

    const refreshId = `refresh-${tenant}-first`;
    const result = await s.refresh(tenant, 'first');
    assert.equal(result.phase, 'done');
    assert.equal(result.refreshId, refreshId);
    assert.equal(result.patients, 5);
    assert.deepEqual(refreshTotals(result.verifications!), { running: 0, verified: 5, failed: 0 });
    assert.ok(result.pages >= 3, `pages of 2: ${result.pages}`);

    for (const id of active) {
      const view = await readPatient(s.p, id);
      const entries = view.timeline.filter((e) => e.refreshId === refreshId);
      assert.equal(entries.length, 1, 'one verification of this refresh');
      assert.equal(entries[0]!.workflowId, patientRefreshVerificationId(id, refreshId));
      assert.equal(entries[0]!.coverage, 'covered');
    }
    const skipped = await readPatient(s.p, inactive.patientId);
    assert.equal(skipped.timeline.length, 0, 'an inactive patient is not verified');
    const d = await client().workflow.getHandle(patientWorkflowId(inactive.patientId)).describe();
    assert.equal(d.typedSearchAttributes.get(RefreshId), undefined);
    // The service's own record: one verification per active patient.
    for (const id of upcoming.map((a) => a.patientId)) {
      const records = (await (await fetch(`${s.h.sandbox.url}/sandbox/verifications?id=${id}`)).json()) as unknown[];
      assert.equal(records.length, 1);
    }

    // A repeated message of the same refresh starts nothing; a second refresh verifies again.
    const first = upcoming[0]!.patientId;
    const handle = client().workflow.getHandle(patientWorkflowId(first));
    await handle.signal(refreshCoverageSignal, { refreshId, batchId: refreshId });
    await handle.signal(refreshCoverageSignal, { refreshId, batchId: refreshId });
    const second = await s.refresh(tenant, 'second');
    assert.equal(second.patients, 5);
    assert.equal(refreshTotals(second.verifications!).verified, 5);
    const view = await readPatient(s.p, first);
    assert.equal(view.timeline.filter((e) => e.refreshId === refreshId).length, 1);
    assert.equal(view.timeline.filter((e) => e.refreshId === `refresh-${tenant}-second`).length, 1);
    assert.deepEqual(view.refreshes, [refreshId, `refresh-${tenant}-second`]);

    if (process.env.RECORD_HISTORIES === '1') {
      await recordHistory('refresh', client().workflow.getHandle(refreshId));
      await handle.terminate('history recorded');
      await recordHistory('patient-refreshed', handle);
    }
  });
});
