import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import {
  cancelAppointment,
  readPatient,
  rescheduleAppointment,
  scheduleAppointment,
  type NewAppointment,
  type Patients,
} from '../../src/patients/patients.js';
import { dayStartsAt } from '../../src/patients/visit-day.js';
import { orderKey, type OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import type { EmitActivities } from '../../workflows/shared/event-emitter.js';
import type { CheckPolicy, PatientView } from '../../workflows/patient/patient.js';
import { FAST, callerId } from '../../testing/fixtures.js';
import { recordHistory } from '../../testing/histories.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
/** Seconds from the start of today (UTC) to `inSeconds` from now: a check offset that falls due that soon. */
const offsetIn = (inSeconds: number) => Math.round((Date.now() - dayStartsAt(today(), 'UTC')) / 1000) + inSeconds;

describe('patientWorkflow (time-compressed: offsets in seconds)', function () {
  this.timeout(90_000);
  let h: WorkflowHarness;
  const emitted: OutboundEvent[] = [];
  before(async () => {
    // The events the workflows emit, as the outbox's local activity receives them (tested end to end in test/events).
    h = await startWorkflowHarness(undefined, {
      emit: {
        emitEvent: ({ event }: { event: OutboundEvent }) => {
          emitted.push(event);
          return Promise.resolve();
        },
      } satisfies EmitActivities,
    });
  });
  after(async () => h?.stop());

  function patients(offsets: CheckPolicy['offsets']): Patients {
    return {
      client: testTemporal().client,
      taskQueue: h.taskQueue,
      idKey: randomBytes(32),
      policy: { offsets },
      verificationTiming: FAST,
    };
  }

  const visit = (overrides: Partial<NewAppointment> = {}): NewAppointment => ({
    tenant: 'clinic-a',
    patientRef: callerId('mrn'),
    patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1985', state: 'NY', memberId: 'M1234567' },
    payerId: '60054',
    dateOfService: today(),
    specialtyCode: 'PRC',
    placeOfServiceCode: '11',
    ...overrides,
  });

  /** A patient never ends: its history is recorded once terminated, and replays up to there. */
  async function recordPatient(name: string, patientId: string) {
    if (process.env.RECORD_HISTORIES !== '1') return;
    const handle = testTemporal().client.workflow.getHandle(patientWorkflowId(patientId));
    await handle.terminate('history recorded');
    await recordHistory(name, handle);
  }

  const settled = (p: Patients, patientId: string, what: string, done: (view: PatientView) => boolean) =>
    eventually(
      async () => {
        const view = await readPatient(p, patientId);
        return done(view) ? view : undefined;
      },
      60_000,
      what,
    );

  it('verifies at the offset before the visit, and reuses that check for the next offset', async () => {
    const p = patients([
      { offsetSeconds: offsetIn(1), reuseWithinSeconds: 3600 },
      { offsetSeconds: offsetIn(4), reuseWithinSeconds: 3600 },
    ]);
    const { patientId, appointment } = await scheduleAppointment(p, visit());
    assert.deepEqual(
      appointment.checks.map((c) => c.state),
      ['waiting', 'waiting'],
    );
    const view = await settled(p, patientId, 'both checks', (v) => v.appointments[0]?.checks[1]?.state !== 'waiting');
    const [first, second] = view.appointments[0]!.checks;
    assert.equal(first!.state, 'verified');
    assert.equal(second!.state, 'reused', 'a check 3 s old answers the next one');
    assert.equal(second!.verificationWorkflowId, first!.verificationWorkflowId);
    assert.equal(view.timeline.length, 1, 'one verification for two checks');
    assert.equal(view.timeline[0]!.coverage, 'covered');
    assert.equal(view.timeline[0]!.payerId, '60054');
    assert.ok(view.timeline[0]!.verificationId);
    assert.equal(view.checksStarted, 1);
    await recordPatient('patient-check-reused', patientId);
  });

  it('repeats a check when the last one is older than its reuse window', async () => {
    const p = patients([
      { offsetSeconds: offsetIn(1), reuseWithinSeconds: 0 },
      { offsetSeconds: offsetIn(4), reuseWithinSeconds: 0 },
    ]);
    const { patientId } = await scheduleAppointment(p, visit());
    const view = await settled(p, patientId, 'both checks', (v) => v.timeline.length === 2);
    assert.deepEqual(
      view.appointments[0]!.checks.map((c) => c.state),
      ['verified', 'verified'],
    );
    assert.notEqual(view.timeline[0]!.workflowId, view.timeline[1]!.workflowId);
    assert.deepEqual(view.changes, [], 'the same answer twice is no change');
  });

  it('moves the checks with a reschedule, and a cancel stops them', async () => {
    const p = patients([{ offsetSeconds: offsetIn(3), reuseWithinSeconds: 0 }]);
    const ref = callerId('mrn');
    const moved = await scheduleAppointment(p, visit({ patientRef: ref }));
    const cancelled = await scheduleAppointment(p, visit({ patientRef: ref }));
    assert.equal(moved.patientId, cancelled.patientId, 'one patient per tenant and reference');
    const rescheduled = await rescheduleAppointment(p, moved.appointment.appointmentId, { dateOfService: tomorrow() });
    assert.equal(rescheduled.checks[0]!.at, moved.appointment.checks[0]!.at + 86_400_000, 'a day later');
    await cancelAppointment(p, cancelled.appointment.appointmentId);
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const view = await readPatient(p, moved.patientId);
    assert.equal(view.timeline.length, 0, 'nothing verified: one moved a day on, one cancelled');
    assert.equal(view.checksStarted, 0);
    const byId = new Map(view.appointments.map((a) => [a.appointmentId, a]));
    assert.equal(byId.get(cancelled.appointment.appointmentId)?.status, 'cancelled');
    assert.deepEqual(byId.get(cancelled.appointment.appointmentId)?.checks, []);
    assert.equal(byId.get(moved.appointment.appointmentId)?.dateOfService, tomorrow());
  });

  it('refuses to reschedule a cancelled appointment, and an unknown one, naming appointmentId', async () => {
    const p = patients([{ offsetSeconds: 86_400, reuseWithinSeconds: 0 }]);
    const { appointment } = await scheduleAppointment(p, visit());
    await cancelAppointment(p, appointment.appointmentId);
    for (const id of [appointment.appointmentId, `${appointment.appointmentId.slice(0, -1)}0`]) {
      const err = await rescheduleAppointment(p, id, { dateOfService: tomorrow() }).then(
        () => assert.fail('refused'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof WorkflowUpdateFailedError, String(err));
      assert.match(String((err.cause as { type?: string }).type), /^Appointment(Cancelled|NotFound)$/);
    }
  });

  it('refuses an appointment without a payer while none is known, naming payerId', async () => {
    const p = patients([{ offsetSeconds: 86_400, reuseWithinSeconds: 0 }]);
    const err = await scheduleAppointment(p, visit({ payerId: undefined })).then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof WorkflowUpdateFailedError, String(err));
    assert.equal((err.cause as { type?: string }).type, 'PayerUnknown');
  });

  it('records a verification that fails where the last one worked as a coverage change', async () => {
    const p = patients([{ offsetSeconds: offsetIn(1), reuseWithinSeconds: 0 }]);
    const ref = callerId('mrn');
    const { patientId } = await scheduleAppointment(p, visit({ patientRef: ref }));
    await settled(p, patientId, 'the first check', (v) => v.timeline.length === 1);
    // A payer the service does not know: the verification fails.
    const second = patients([{ offsetSeconds: offsetIn(1), reuseWithinSeconds: 0 }]);
    second.idKey = p.idKey;
    await scheduleAppointment(second, visit({ patientRef: ref, payerId: '99999' }));
    const view = await settled(p, patientId, 'the second check', (v) => v.timeline.length === 2);
    assert.equal(view.timeline[1]!.coverage, 'failed');
    assert.equal(view.changes.length, 1);
    assert.deepEqual(view.changes[0]!.kinds, ['verification-failing']);
    assert.equal(view.changes[0]!.previousWorkflowId, view.timeline[0]!.workflowId);
    assert.equal(view.changes[0]!.workflowId, view.timeline[1]!.workflowId);
    await recordPatient('patient-coverage-change', patientId);
  });

  it('continues as new carrying its timeline and counter: the next verification gets a new id', async () => {
    const p = { ...patients([{ offsetSeconds: offsetIn(1), reuseWithinSeconds: 0 }]) };
    p.policy = { ...p.policy, continueAfterEvents: 10 };
    const ref = callerId('mrn');
    const { patientId } = await scheduleAppointment(p, visit({ patientRef: ref }));
    const handle = testTemporal().client.workflow.getHandle(patientWorkflowId(patientId));
    const firstRun = (await handle.describe()).runId;
    await settled(p, patientId, 'the first check', (v) => v.timeline.length === 1);
    await eventually(
      async () => ((await handle.describe()).runId !== firstRun ? true : undefined),
      10_000,
      'a new run',
    );
    await scheduleAppointment(p, visit({ patientRef: ref }));
    const view = await settled(p, patientId, 'the second check', (v) => v.timeline.length === 2);
    assert.equal(view.checksStarted, 2);
    assert.deepEqual(
      view.timeline.map((e) => e.workflowId),
      [`verification-${patientId}-0`, `verification-${patientId}-1`],
    );
    assert.equal(view.appointments.length, 2, 'the first appointment carried across');
  });

  it('emits coverage.changed through the event outbox, in the patient’s order, with no patient value', async () => {
    const tenant = `clinic-${randomUUID().slice(0, 8)}`;
    const p = patients([{ offsetSeconds: offsetIn(1), reuseWithinSeconds: 0 }]);
    const ref = callerId('mrn');
    const { patientId } = await scheduleAppointment(p, visit({ tenant, patientRef: ref }));
    await settled(p, patientId, 'the first check', (v) => v.timeline.length === 1);
    const second = { ...patients([{ offsetSeconds: offsetIn(1), reuseWithinSeconds: 0 }]), idKey: p.idKey };
    await scheduleAppointment(second, visit({ tenant, patientRef: ref, payerId: '99999' }));
    await settled(p, patientId, 'the change', (v) => v.changes.length === 1);
    const changes = await eventually(() => {
      const found = emitted.filter((e) => e.type === 'coverage.changed' && e.tenant === tenant);
      return Promise.resolve(found.length > 0 ? found : undefined);
    });
    assert.equal(changes.length, 1);
    const [change] = changes;
    assert.equal(orderKey(change!), `patient:${patientId}`, 'ordered with the patient’s other events');
    assert.equal(change!.links.self, `/patients/${patientId}`);
    assert.ok(!JSON.stringify(change).includes(ref), 'no patient reference in the event');
  });
});
