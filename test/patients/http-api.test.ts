import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { IntakeClients } from '../../src/access/intake-clients.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { dayStartsAt } from '../../src/patients/visit-day.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import type { PatientView } from '../../workflows/patient/patient.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { testStore } from '../../testing/database.js';
import { testCodecKeys } from '../../testing/codec.js';
import { Visits } from '../../src/visits/index.js';
import { FAST, callerId } from '../../testing/fixtures.js';
import { startIntakeApiHarness } from '../../testing/intake-api-harness.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';

const PATIENT = {
  firstName: 'Grace',
  lastName: 'Hopper',
  dateOfBirth: '12/09/1986',
  state: 'NY',
  memberId: 'W9988776',
};
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The intake API's patients and appointments (issue 35): tenant-scoped, strict bodies, every disclosure audited. */
describe('intake API: patients and appointments', function () {
  this.timeout(90_000);
  let store: Store;
  let api: FastifyInstance;
  let stop: (() => Promise<void>) | undefined;
  let audit: AuditTrail;
  let visits: Visits;
  const keys = { a: '', b: '' };

  before(async () => {
    store = await testStore();
    const clients = new IntakeClients(store);
    audit = new AuditTrail(store);
    const scopes: ['verifications:write', 'verifications:read'] = ['verifications:write', 'verifications:read'];
    keys.a = (await clients.create({ name: 'a', tenant: 'clinic-a', scopes, by: 'test' })).key;
    keys.b = (await clients.create({ name: 'b', tenant: 'clinic-b', scopes, by: 'test' })).key;
    // The first check falls due 2 s after now (from the start of today, UTC); the second is a day later.
    const firstIn = Math.round((Date.now() - dayStartsAt(today(), 'UTC')) / 1000) + 2;
    visits = new Visits(store, testCodecKeys());
    ({ api, stop } = await startIntakeApiHarness({
      access: { clients, audit },
      copies: visits,
      patients: {
        idKey: randomBytes(32),
        verificationTiming: FAST,
        policy: {
          offsets: [
            { offsetSeconds: firstIn, reuseWithinSeconds: 0 },
            { offsetSeconds: firstIn + 86_400, reuseWithinSeconds: 0 },
          ],
        },
      },
    }));
  });
  after(async () => {
    await stop?.();
    await store?.close();
  });

  const as = (key: string, options: InjectOptions) =>
    api.inject({ ...options, headers: { 'x-api-key': key, ...(options.headers as Record<string, string>) } });
  const book = (key: string, body: Record<string, unknown>) =>
    as(key, { method: 'POST', url: '/appointments', payload: body });
  const appointment = (overrides: Record<string, unknown> = {}) => ({
    patientRef: callerId('MRN'),
    patient: PATIENT,
    payerId: '60054',
    dateOfService: today(),
    timeZone: 'UTC',
    specialtyCode: 'PRC',
    placeOfServiceCode: '11',
    ...overrides,
  });

  it('books, finds the patient by its reference, shows it, and audits the disclosure by field names', async () => {
    // An ISO date of birth reaches the patient, and the service, as the service's MM/DD/YYYY.
    const body = appointment({ patient: { ...PATIENT, dateOfBirth: '1986-12-09' }, startTime: '09:30' });
    const booked = await book(keys.a, body);
    assert.equal(booked.statusCode, 201, booked.body);
    const { patientId, appointment: held } = booked.json<{
      patientId: string;
      appointment: { appointmentId: string; startTime: string; dayStartsAt: string; checks: { at: string }[] };
    }>();
    assert.match(patientId, /^pt_[0-9a-f]{32}$/);
    assert.match(held.appointmentId, /^apt_[0-9a-f]{32}_[0-9a-f]{16}$/);
    assert.equal(held.startTime, '09:30');
    assert.equal(held.dayStartsAt, `${today()}T00:00:00.000Z`, 'instants are ISO 8601');
    assert.ok(held.checks.every((c) => ISO_INSTANT.test(c.at)));
    const described = await testTemporal().client.workflow.getHandle(patientWorkflowId(patientId)).describe();
    assert.equal(described.typedSearchAttributes.get(Tenant), 'clinic-a');

    const found = await as(keys.a, {
      method: 'POST',
      url: '/patients/lookup',
      payload: { patientRef: body.patientRef },
    });
    assert.equal(found.statusCode, 200);
    assert.deepEqual(found.json(), { patientId });

    const view = await eventually(async () => {
      const shown = await as(keys.a, { method: 'GET', url: `/patients/${patientId}` });
      assert.equal(shown.statusCode, 200, shown.body);
      const patient = shown.json<PatientView>();
      return patient.timeline.length > 0 ? patient : undefined;
    }, 30_000);
    assert.deepEqual(view.patient, PATIENT);
    assert.equal(view.timeline[0]!.coverage, 'covered', 'the service took the date of birth');
    assert.match(String(view.timeline[0]!.at), ISO_INSTANT);
    assert.equal(view.appointments[0]!.checks[0]!.state, 'verified');
    assert.match(String(view.appointments[0]!.checks[0]!.at), ISO_INSTANT);
    assert.equal(view.appointments[0]!.startTime, '09:30');
    // The front desk's day: the patient wrote its copy, and the visit stands verified there.
    const day = await eventually(async () => {
      const read = await visits.day({ day: today(), tenants: ['clinic-a'] });
      const visit = read.visits.find((v) => v.patientId === patientId);
      return visit?.coverage === 'verified' ? visit : undefined;
    });
    assert.equal(day.appointmentId, held.appointmentId);
    assert.equal((await visits.copies([patientId], ['clinic-b'])).size, 0, 'another tenant reads no copy');
    // N1: the patient's check carries the blind index, so a search by last name + date of birth, or by member id,
    // finds the patient booked by appointment.
    const checkId = view.timeline[0]!.workflowId;
    for (const by of [{ lastName: 'HOPPER', dateOfBirth: '12/09/1986' }, { memberId: 'w99-88776' }]) {
      const matches = await eventually(async () => {
        const answer = await as(keys.a, { method: 'POST', url: '/verifications/search', payload: by });
        assert.equal(answer.statusCode, 200, answer.body);
        const ids = answer.json<{ matches: { workflowId: string }[] }>().matches.map((m) => m.workflowId);
        return ids.includes(checkId) ? ids : undefined;
      });
      assert.ok(matches.includes(checkId), Object.keys(by).join(' + '));
    }
    const entries = await audit.list({ workflowId: patientWorkflowId(patientId) });
    const read = entries.find((e) => e.action === 'patient.read');
    assert.ok(read, 'the read is audited');
    assert.ok(read.fields.includes('patient.dateOfBirth'));
    assert.ok(entries.some((e) => e.action === 'appointment.create' && e.fields.includes('patientRef')));
    assert.ok(!JSON.stringify(entries).includes(body.patientRef), 'the audit names fields, never values');
  });

  it("answers another tenant's patient and appointment as ones that do not exist", async () => {
    const body = appointment();
    const booked = (await book(keys.a, body)).json<{ patientId: string; appointment: { appointmentId: string } }>();
    const id = booked.appointment.appointmentId;
    const tries: InjectOptions[] = [
      { method: 'GET', url: `/patients/${booked.patientId}` },
      { method: 'PUT', url: `/appointments/${id}`, payload: { dateOfService: inDays(3) } },
      { method: 'DELETE', url: `/appointments/${id}` },
    ];
    for (const options of tries) {
      const answer = await as(keys.b, options);
      assert.equal(answer.statusCode, 404, `${String(options.method)} ${JSON.stringify(options.url)}: ${answer.body}`);
    }
    const lookup = await as(keys.b, {
      method: 'POST',
      url: '/patients/lookup',
      payload: { patientRef: body.patientRef },
    });
    assert.equal(lookup.statusCode, 404, "the same reference in tenant B is B's patient, who does not exist");
  });

  it('reschedules and cancels; a cancelled appointment cannot be moved (409)', async () => {
    const booked = (await book(keys.a, appointment({ dateOfService: inDays(5) }))).json<{
      appointment: { appointmentId: string };
    }>();
    const url = `/appointments/${booked.appointment.appointmentId}`;
    const moved = await as(keys.a, {
      method: 'PUT',
      url,
      payload: { dateOfService: inDays(6), timeZone: 'UTC', startTime: '14:15' },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(moved.json<{ dateOfService: string }>().dateOfService, inDays(6));
    assert.equal(moved.json<{ startTime: string }>().startTime, '14:15', 'a move may give the visit a new time');
    const cancelled = await as(keys.a, { method: 'DELETE', url });
    assert.equal(cancelled.statusCode, 200);
    assert.equal(cancelled.json<{ status: string }>().status, 'cancelled');
    const again = await as(keys.a, { method: 'PUT', url, payload: { dateOfService: inDays(7) } });
    assert.equal(again.statusCode, 409);
  });

  it('lists a coverage change on its tenant’s Changes list until it is marked seen', async () => {
    const patientRef = callerId('MRN');
    const first = (await book(keys.a, appointment({ patientRef }))).json<{ patientId: string }>();
    const shown = (key: string) => as(key, { method: 'GET', url: `/patients/${first.patientId}` });
    await eventually(async () => ((await shown(keys.a)).json<PatientView>().timeline.length === 1 ? true : undefined));
    // A payer the service does not know: the next check fails where the first worked.
    assert.equal((await book(keys.a, appointment({ patientRef, payerId: '99999' }))).statusCode, 201);
    type Listed = { changes: { changeId: string; patientId: string; kinds: string[]; at: string }[] };
    const list = async (key: string) => {
      const listed = await as(key, { method: 'GET', url: '/coverage-changes' });
      assert.equal(listed.statusCode, 200, listed.body);
      return listed.json<Listed>().changes.filter((c) => c.patientId === first.patientId);
    };
    const [change] = await eventually(async () => ((await list(keys.a)).length > 0 ? list(keys.a) : undefined), 30_000);
    assert.deepEqual(change!.kinds, ['verification-failing']);
    assert.match(change!.at, ISO_INSTANT);
    assert.deepEqual(await list(keys.b), [], "not on another tenant's list");
    const url = `/coverage-changes/${change!.changeId}/seen`;
    assert.equal((await as(keys.b, { method: 'POST', url })).statusCode, 404, "another tenant's change");
    const seen = await as(keys.a, { method: 'POST', url });
    assert.equal(seen.statusCode, 200);
    assert.deepEqual(seen.json(), { seen: 1 });
    assert.deepEqual((await as(keys.a, { method: 'POST', url })).json(), { seen: 0 }, 'already seen');
    await eventually(async () => ((await list(keys.a)).length === 0 ? true : undefined), 30_000, 'off the list');
    const [marked] = (await shown(keys.a)).json<{ changes: { at: string; seenAt: string }[] }>().changes;
    assert.match(marked!.seenAt, ISO_INSTANT, 'the patient answers when it was seen, as ISO 8601');
  });

  it('refuses a date of service whose day has passed in its zone, booking or moving, naming the field only', async () => {
    const held = (await book(keys.a, appointment({ dateOfService: inDays(2) }))).json<{
      appointment: { appointmentId: string };
    }>();
    const tries: [string, InjectOptions][] = [
      ['2020-03-15', { method: 'POST', url: '/appointments', payload: appointment({ dateOfService: '2020-03-15' }) }],
      [inDays(-1), { method: 'POST', url: '/appointments', payload: appointment({ dateOfService: inDays(-1) }) }],
      [
        '2020-03-16',
        {
          method: 'PUT',
          url: `/appointments/${held.appointment.appointmentId}`,
          payload: { dateOfService: '2020-03-16', timeZone: 'UTC' },
        },
      ],
    ];
    for (const [date, options] of tries) {
      const refused = await as(keys.a, options);
      assert.equal(refused.statusCode, 400, `${String(options.method)} ${date}: ${refused.body}`);
      assert.equal(refused.json<{ param: string }>().param, 'dateOfService');
      assert.ok(!refused.body.includes(date), 'the date is not echoed');
    }
  });

  it('refuses unknown fields and bad values by name, never echoing a patient value', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...appointment(), mrn: 'x' }, 'mrn'],
      [{ ...appointment(), patient: { ...PATIENT, ssn: '123' } }, 'patient.ssn'],
      [appointment({ dateOfService: '2026-02-30' }), 'dateOfService'],
      [appointment({ timeZone: 'Mars/Olympus' }), 'timeZone'],
      [appointment({ patient: { ...PATIENT, dateOfBirth: '13/45/1986' } }), 'patient.dateOfBirth'],
      [appointment({ patient: { ...PATIENT, dateOfBirth: '1986-02-30' } }), 'patient.dateOfBirth'],
      [appointment({ dateOfService: '12/09/2031' }), 'dateOfService'],
      [appointment({ startTime: '9:30' }), 'startTime'],
      [appointment({ startTime: '24:00' }), 'startTime'],
    ];
    for (const [body, param] of cases) {
      const refused = await book(keys.a, body);
      assert.equal(refused.statusCode, 400, param);
      assert.equal(refused.json<{ param: string }>().param, param);
      for (const value of [PATIENT.lastName, PATIENT.memberId, '13/45/1986', '1986-02-30', '9:30', '24:00']) {
        assert.ok(!refused.body.includes(value), `${param}: ${refused.body}`);
      }
    }
    const move = { method: 'PUT', url: `/appointments/apt_${'0'.repeat(32)}_${'0'.repeat(16)}` } as const;
    const timed = await as(keys.a, { ...move, payload: { dateOfService: inDays(3), startTime: '9:30' } });
    assert.equal(timed.statusCode, 400, 'a move checks its time');
    assert.equal(timed.json<{ param: string }>().param, 'startTime');
    const lookup = await as(keys.a, { method: 'POST', url: '/patients/lookup', payload: { patientRef: 'x', y: 1 } });
    assert.equal(lookup.statusCode, 400);
    assert.equal(lookup.json<{ param: string }>().param, 'y');
    const badId = await as(keys.a, { method: 'GET', url: '/patients/MRN-12345' });
    assert.equal(badId.statusCode, 400, 'a reference in the URL is not an id');
  });
});
