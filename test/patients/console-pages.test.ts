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
import { Visits } from '../../src/visits/index.js';
import { indexTokens } from '../../src/blind-index/tokens.js';
import { testBlindIndex } from '../../testing/codec.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import type { PatientView } from '../../workflows/patient/patient.js';
import { patientRecord } from '../../apps/console/views/patient-record.js';

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
  let visits: Visits;
  const tenant = `clinic-${randomUUID().slice(0, 8)}`;
  const ana = { name: 'ana', password: `ana-${randomUUID()}` };
  const vic = { name: 'vic', password: `vic-${randomUUID()}` };
  const otto = { name: 'otto', password: `otto-${randomUUID()}` };
  // One session each for the suite: a sign-in costs a password hash.
  const sessions = new Map<string, Promise<string>>();
  const session = (who: { name: string; password: string }) => {
    if (!sessions.has(who.name)) sessions.set(who.name, signInAs(console, who));
    return sessions.get(who.name)!;
  };

  before(async () => {
    h = await startWorkflowHarness();
    store = await testStore();
    trail = new AuditTrail(store);
    const directory = new OperatorDirectory(store);
    await directory.create({ ...ana, role: 'operator', tenants: [tenant], by: 'test' });
    await directory.create({ ...vic, role: 'viewer', tenants: [tenant], by: 'test' });
    await directory.create({ ...otto, role: 'operator', tenants: ['another-clinic'], by: 'test' });
    visits = new Visits(store, undefined);
    const idKey = randomBytes(32);
    console = await startTestConsole(testTemporal().client, { audit: trail, directory, visits, patientIdKey: idKey });
    const offsetSeconds = Math.round((Date.now() - dayStartsAt(today(), 'UTC')) / 1000);
    patients = {
      client: testTemporal().client,
      taskQueue: h.taskQueue,
      idKey,
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
    // The front desk's copy, as the patient writes it (a revision past any the workflow reaches in this suite).
    const index = indexTokens(testBlindIndex(), tenant, PATIENT);
    await visits.keep({ ...(await readPatient(patients, patientId)), index, revision: 1_000_000 });
  });
  after(async () => {
    await console?.close();
    await store?.close();
    await h?.stop();
  });

  it('shows a patient to an operator of its tenant, audited by field names, and masks it for a viewer', async () => {
    const page = await getPage(console, `/patients/${patientId}`, await session(ana));
    assert.equal(page.statusCode, 200);
    // Headed by the patient; the browser's title (kept in its history) names nobody; the section is Patients.
    assert.match(page.body, /<h1>Hedy Lamarr<\/h1>/);
    assert.match(page.body, /<title>Patient · /);
    assert.match(page.body, /href="\/patients"\s+aria-current="page"/);
    for (const text of ['Lamarr', '11/09/1984', 'HL5566778', 'verification-failing', 'Coverage timeline']) {
      assert.ok(page.body.includes(text), text);
    }
    const entries = await trail.list({ workflowId: patientWorkflowId(patientId) });
    const read = entries.find((e) => e.action === 'patient.read' && e.actor === 'operator:ana');
    assert.ok(read?.fields.includes('patient.memberId'));
    const masked = await getPage(console, `/patients/${patientId}`, await session(vic));
    assert.equal(masked.statusCode, 200);
    assert.ok(!masked.body.includes('HL5566778') && !masked.body.includes('11/09/1984'), 'a viewer sees masks');
    assert.ok(masked.body.includes('••••6778'));
    assert.match(masked.body, /<h1>H\. L\.<\/h1>/);
    assert.ok(!masked.body.includes('Lamarr'), 'a viewer sees initials');
  });

  it('puts Patients in the navigation, and finds a patient by the practice reference and by name + date of birth', async () => {
    const cookie = await session(ana);
    const form = await getPage(console, '/patients', cookie);
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /<a href="\/patients"\s+aria-current="page">Patients/);
    assert.ok(
      form.body.indexOf('href="/patients"') < form.body.indexOf('href="/verifications"'),
      'Patients before Find',
    );
    const csrf = csrfFrom(form.body);
    const link = `<a href="/patients/${patientId}">Hedy Lamarr</a>`;
    const byRef = await postForm(console, '/patients', cookie, { _csrf: csrf, patientRef: 'MRN-CONSOLE-1' });
    assert.equal(byRef.statusCode, 200);
    assert.ok(byRef.body.includes(link), 'found by reference');
    // A form's answer page keeps the navigation's counts.
    assert.match(byRef.body, /<span class="count">\d+<\/span>/);
    const byName = await postForm(console, '/patients', cookie, {
      _csrf: csrf,
      lastName: 'lamarr',
      dateOfBirth: '1984-11-09',
    });
    assert.ok(byName.body.includes(link), 'found by last name + date of birth');
    const other = await postForm(console, '/patients', cookie, { _csrf: csrf, patientRef: 'MRN-NOBODY' });
    assert.match(other.body, /No patient was found/);
    const viewer = await session(vic);
    const masked = await postForm(console, '/patients', viewer, {
      _csrf: csrfFrom((await getPage(console, '/patients', viewer)).body),
      memberId: 'hl-5566778',
    });
    assert.ok(masked.body.includes(`<a href="/patients/${patientId}">H. L.</a>`), 'a viewer sees initials');
    assert.ok(!masked.body.includes('Lamarr') && !masked.body.includes('11/09/1984'));
    const entries = await trail.list({ workflowId: patientWorkflowId(patientId) });
    assert.ok(
      entries.some((e) => e.action === 'patient.read' && e.actor === 'operator:vic'),
      'each listing audited',
    );
  });

  it('shows the patient and the visit beside a check on the worklists, and Recent newest started first', async () => {
    const cookie = await session(ana);
    const { timeline } = await readPatient(patients, patientId);
    // Two verifications of no worker: the earlier started is stopped last, so visibility lists it first.
    const client = testTemporal().client;
    const start = (name: string) =>
      client.workflow.start(WorkflowType.verification, {
        taskQueue: `nobody-${randomUUID()}`,
        workflowId: `verification-recent-${name}-${randomUUID()}`,
        args: [],
        typedSearchAttributes: [{ key: Tenant, value: tenant }],
      });
    const older = await start('older');
    const newer = await start('newer');
    await newer.terminate();
    await older.terminate();
    const recent = await eventually(async () => {
      const page = await getPage(console, '/recent', cookie);
      return page.body.includes(older.workflowId) && page.body.includes(newer.workflowId) ? page : undefined;
    });
    assert.match(recent.body, /newest started first/);
    assert.ok(recent.body.indexOf(newer.workflowId) < recent.body.indexOf(older.workflowId), 'newest started first');
    const row = new RegExp(
      `${timeline[0]!.workflowId}</a><br /><small\\s*><a href="/patients/${patientId}">Hedy Lamarr</a\\s*>, visit ${today()} \\(UTC\\)`,
    );
    assert.match(recent.body, row, 'the patient and visit beside the verification id');
  });

  it("answers another tenant's operator as if the patient did not exist", async () => {
    const page = await getPage(console, `/patients/${patientId}`, await session(otto));
    assert.equal(page.statusCode, 404);
    assert.ok(!page.body.includes('Lamarr'));
  });

  it('links a verification the patient started to its patient', async () => {
    const { timeline } = await readPatient(patients, patientId);
    const page = await getPage(console, `/verifications/${timeline[0]!.workflowId}`, await session(ana));
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`href="/patients/${patientId}"`));
  });

  it('lists the change on the Changes page until an operator marks it seen; a viewer may not', async () => {
    const cookie = await session(ana);
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
    const viewer = await session(vic);
    const refused = await postForm(console, url, viewer, {
      _csrf: csrfFrom((await getPage(console, '/changes', viewer)).body),
    });
    assert.equal(refused.statusCode, 403);
    const marked = await postForm(console, url, cookie, { _csrf: csrfFrom(listed.body) });
    assert.equal(marked.statusCode, 303);
    assert.ok((await readPatient(patients, patientId)).changes[0]!.seenAt);
    const outsider = await session(otto);
    const otherTenant = await postForm(console, url, outsider, {
      _csrf: csrfFrom((await getPage(console, '/changes', outsider)).body),
    });
    assert.equal(otherTenant.statusCode, 404);
    await eventually(async () =>
      !(await getPage(console, '/changes', cookie)).body.includes(patientId) ? true : undefined,
    );
  });
});

describe('the patient page (N2)', () => {
  const id = `pt_${'a'.repeat(32)}`;
  const now = Date.parse('2026-06-15T12:00:00Z');
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`);
  const visit = { timeZone: 'UTC', specialtyCode: 'PRC', placeOfServiceCode: '11', status: 'scheduled' } as const;
  const view: PatientView = {
    patientId: id,
    tenant: 'clinic',
    patient: PATIENT,
    appointments: [
      {
        ...visit,
        appointmentId: 'apt_next',
        dateOfService: '2026-06-16',
        dayStartsAt: day('2026-06-16'),
        startTime: '09:30',
        payerId: '60054',
        checks: [{ at: now, reuseWithinSeconds: 0, state: 'verified', verificationWorkflowId: `verification-${id}-1` }],
      },
      {
        ...visit,
        appointmentId: 'apt_past',
        dateOfService: '2020-03-02',
        dayStartsAt: day('2020-03-02'),
        payerId: '60054',
        checks: [
          { at: now - 1, reuseWithinSeconds: 0, state: 'verified', verificationWorkflowId: `verification-${id}-0` },
        ],
      },
    ],
    timeline: [
      { at: now - 1, outcome: 'completed', coverage: 'covered', payerId: '60054', workflowId: `verification-${id}-0` },
    ],
    changes: [],
    checksStarted: 2,
  };
  const names = new Map([['60054', { payerId: '60054', name: 'Aetna', aliasIds: [], aliasNames: [] }]]);

  it('lists upcoming and past visits apart, with time, payer by name, coverage, and a check in progress', () => {
    const body = patientRecord(view, names, now).text;
    const upcoming = body.slice(body.indexOf('Upcoming visits'), body.indexOf('Past visits'));
    const past = body.slice(body.indexOf('Past visits'), body.indexOf('Coverage timeline'));
    const timeline = body.slice(body.indexOf('Coverage timeline'));
    assert.match(upcoming, /2026-06-16 09:30 \(UTC\)/);
    assert.match(upcoming, /Checking/);
    assert.ok(!upcoming.includes('2020-03-02'), 'a visit whose day has ended is past');
    assert.match(past, /2020-03-02 \(UTC\)/);
    assert.match(past, /Verified/);
    assert.match(
      timeline,
      new RegExp(`Checking.*verification-${id}-1`, 's'),
      'the check in progress is on the timeline',
    );
    assert.ok(body.includes('Aetna') && !body.includes('<code>60054</code>'), 'payers by name');
  });
});
