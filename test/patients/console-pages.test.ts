import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { readPatient, scheduleAppointment, type NewAppointment, type Patients } from '../../src/patients/patients.js';
import { dayStartsAt } from '../../src/patients/visit-day.js';
import type { Store } from '../../src/store/database.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import {
  csrfFrom,
  getPage,
  postForm,
  signInAs,
  startTestConsole,
  type TestConsole,
} from '../../testing/console-app.js';
import { testStore } from '../../testing/database.js';
import { FAST } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

const PATIENT: NewAppointment['patient'] = {
  firstName: 'Hedy',
  lastName: 'Lamarr',
  dateOfBirth: '11/09/1984',
  state: 'CA',
  memberId: 'HL5566778',
};
const today = () => new Date().toISOString().slice(0, 10);

/** The console's patient page and Changes worklist (issue 35), against a real patient with a real change. */
describe('operator console: patients and coverage changes', function () {
  this.timeout(90_000);
  let h: WorkflowHarness;
  let store: Store;
  let trail: AuditTrail;
  let console: TestConsole;
  let patients: Patients;
  let patientId: string;
  const tenant = `clinic-${randomUUID().slice(0, 8)}`;
  const ana = { name: 'ana', password: `ana-${randomUUID()}` };
  const vic = { name: 'vic', password: `vic-${randomUUID()}` };
  const otto = { name: 'otto', password: `otto-${randomUUID()}` };

  before(async () => {
    h = await startWorkflowHarness();
    store = await testStore();
    trail = new AuditTrail(store);
    const directory = new OperatorDirectory(store);
    await directory.create({ ...ana, role: 'operator', tenants: [tenant], by: 'test' });
    await directory.create({ ...vic, role: 'viewer', tenants: [tenant], by: 'test' });
    await directory.create({ ...otto, role: 'operator', tenants: ['another-clinic'], by: 'test' });
    console = await startTestConsole(testTemporal().client, { audit: trail, directory });
    const offsetSeconds = Math.round((Date.now() - dayStartsAt(today(), 'UTC')) / 1000);
    patients = {
      client: testTemporal().client,
      taskQueue: h.taskQueue,
      idKey: randomBytes(32),
      verificationTiming: FAST,
      policy: { offsets: [{ offsetSeconds, reuseWithinSeconds: 0 }] },
    };
    const visit = (payerId: string): NewAppointment => ({
      tenant,
      patientRef: 'MRN-CONSOLE-1',
      patient: PATIENT,
      payerId,
      dateOfService: today(),
      specialtyCode: 'PRC',
      placeOfServiceCode: '11',
    });
    ({ patientId } = await scheduleAppointment(patients, visit('60054')));
    await eventually(async () => ((await readPatient(patients, patientId)).timeline.length === 1 ? true : undefined));
    // A payer the service does not know: the second check fails where the first worked, a coverage change.
    await scheduleAppointment(patients, visit('99999'));
    await eventually(async () => ((await readPatient(patients, patientId)).changes.length === 1 ? true : undefined));
  });
  after(async () => {
    await console?.close();
    await store?.close();
    await h?.stop();
  });

  it('shows a patient to an operator of its tenant, audited by field names, and masks it for a viewer', async () => {
    const page = await getPage(console, `/patients/${patientId}`, await signInAs(console, ana));
    assert.equal(page.statusCode, 200);
    for (const text of ['Lamarr', '11/09/1984', 'HL5566778', 'verification-failing', 'Coverage timeline']) {
      assert.ok(page.body.includes(text), text);
    }
    const entries = await trail.list({ workflowId: patientWorkflowId(patientId) });
    const read = entries.find((e) => e.action === 'patient.read' && e.actor === 'operator:ana');
    assert.ok(read?.fields.includes('patient.memberId'));
    const masked = await getPage(console, `/patients/${patientId}`, await signInAs(console, vic));
    assert.equal(masked.statusCode, 200);
    assert.ok(!masked.body.includes('HL5566778') && !masked.body.includes('11/09/1984'), 'a viewer sees masks');
    assert.ok(masked.body.includes('••••6778'));
  });

  it("answers another tenant's operator as if the patient did not exist", async () => {
    const page = await getPage(console, `/patients/${patientId}`, await signInAs(console, otto));
    assert.equal(page.statusCode, 404);
    assert.ok(!page.body.includes('Lamarr'));
  });

  it('links a verification the patient started to its patient', async () => {
    const { timeline } = await readPatient(patients, patientId);
    const page = await getPage(console, `/verifications/${timeline[0]!.workflowId}`, await signInAs(console, ana));
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`href="/patients/${patientId}"`));
  });

  it('lists the change on the Changes page until an operator marks it seen; a viewer may not', async () => {
    const cookie = await signInAs(console, ana);
    const listed = await eventually(async () => {
      const page = await getPage(console, '/changes', cookie);
      return page.body.includes(patientId) ? page : undefined;
    }, 30_000);
    assert.ok(listed.body.includes('verification-failing'));
    // The navigation counts the patients with an unseen change (its counts are kept 15 s).
    await eventually(
      async () =>
        /href="\/changes"[^>]*>Changes <span class="count">1<\/span>/.test(
          (await getPage(console, '/changes', cookie)).body,
        )
          ? true
          : undefined,
      30_000,
    );
    assert.ok(!listed.body.includes('Lamarr'), 'the list holds no patient value');
    const { changes } = await readPatient(patients, patientId);
    const url = `/changes/${changes[0]!.changeId}/seen`;
    const viewer = await signInAs(console, vic);
    const refused = await postForm(console, url, viewer, {
      _csrf: csrfFrom((await getPage(console, '/changes', viewer)).body),
    });
    assert.equal(refused.statusCode, 403);
    const marked = await postForm(console, url, cookie, { _csrf: csrfFrom(listed.body) });
    assert.equal(marked.statusCode, 303);
    assert.ok((await readPatient(patients, patientId)).changes[0]!.seenAt);
    const outsider = await signInAs(console, otto);
    const otherTenant = await postForm(console, url, outsider, {
      _csrf: csrfFrom((await getPage(console, '/changes', outsider)).body),
    });
    assert.equal(otherTenant.statusCode, 404);
    await eventually(async () =>
      !(await getPage(console, '/changes', cookie)).body.includes(patientId) ? true : undefined,
    );
  });
});
