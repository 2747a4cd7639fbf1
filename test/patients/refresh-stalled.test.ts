import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { progressLine } from '../../apps/cli/commands/schedules.js';
import { scheduleAppointment } from '../../src/patients/patients.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import { refreshTotals } from '../../workflows/refresh/refresh.js';
import { Tenant, VisitMonths } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';
import { day, refreshSuite } from './refresh-suite.js';

describe('refreshWorkflow: a patient that cannot answer', function () {
  this.timeout(120_000);
  const s = refreshSuite();
  const client = () => testTemporal().client;

  it('reports a patient that cannot answer as unanswered after stalledSeconds across continue-as-new, and verifies the others', async () => {
    const tenant = `clinic-${randomUUID().slice(0, 8)}`;
    const booked = await Promise.all([1, 2, 3].map(() => scheduleAppointment(s.p, s.visit(tenant, day(20)))));
    // A patient whose every workflow task fails (no input): listed like the others, it never takes a refresh.
    const stuck = `pt_${randomBytes(16).toString('hex')}`;
    const month = day(20).slice(0, 7);
    await client().workflow.start(WorkflowType.patient, {
      workflowId: patientWorkflowId(stuck),
      taskQueue: s.h.taskQueue,
      args: [],
      typedSearchAttributes: [
        { key: Tenant, value: tenant },
        { key: VisitMonths, value: [month] },
      ],
    });
    await s.indexed(booked.map((b) => b.patientId));

    // Continuing as new every few looks, sooner than the stall: the stall's clock goes with the run's state.
    const result = await s.refresh(tenant, 'stuck', { stalledSeconds: 4, continueAfterEvents: 30 });
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
