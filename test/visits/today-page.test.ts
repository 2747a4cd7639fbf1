import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'mocha';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { Visits } from '../../src/visits/index.js';
import { getPage, signInAs, startTestConsole, type TestConsole } from '../../testing/console-app.js';
import { testCodecKeys } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { appointmentIdOf, patientCopy, patientIdOf } from '../../testing/patient-copies.js';
import { testTemporal } from '../../testing/temporal.js';

const DAY = '2032-06-15';

/** `/today` over copies written with `Visits.keep` (no patient workflow): order, states, counts, masks, audit, tenants. */
describe('operator console: today’s visits', function () {
  let store: Store;
  let trail: AuditTrail;
  let console: TestConsole;
  let anaCookie: string;
  const tenant = `clinic-${randomUUID().slice(0, 8)}`;
  const ana = { name: 'ana', password: `ana-${randomUUID()}` };
  const vic = { name: 'vic', password: `vic-${randomUUID()}` };

  before(async () => {
    store = await testStore();
    trail = new AuditTrail(store);
    const directory = new OperatorDirectory(store);
    await directory.create({ ...ana, role: 'operator', tenants: [tenant], by: 'test' });
    await directory.create({ ...vic, role: 'viewer', tenants: [tenant], by: 'test' });
    const visits = new Visits(store, testCodecKeys());
    const covered = { at: 2, outcome: 'completed' as const, coverage: 'covered' as const, workflowId: 'v-a' };
    await visits.keep(
      patientCopy(
        {
          patientId: patientIdOf(101),
          tenant,
          timeline: [covered],
          patient: { firstName: 'Ada', lastName: 'Byron', dateOfBirth: '12/10/1985' },
        },
        [
          {
            appointmentId: appointmentIdOf(patientIdOf(101), 1),
            dateOfService: DAY,
            startTime: '11:00',
            checked: 'v-a',
          },
        ],
      ),
    );
    await visits.keep(
      patientCopy(
        {
          patientId: patientIdOf(102),
          tenant,
          patient: { firstName: 'Alan', lastName: 'Turing', dateOfBirth: '06/23/1912' },
        },
        [{ appointmentId: appointmentIdOf(patientIdOf(102), 1), dateOfService: DAY, startTime: '08:30' }],
      ),
    );
    await visits.keep(
      patientCopy(
        {
          patientId: patientIdOf(103),
          tenant: 'another-clinic',
          patient: { firstName: 'Emmy', lastName: 'Noether', dateOfBirth: '03/23/1882' },
        },
        [{ appointmentId: appointmentIdOf(patientIdOf(103), 1), dateOfService: DAY, startTime: '07:00' }],
      ),
    );
    console = await startTestConsole(testTemporal().client, { audit: trail, directory, visits });
    anaCookie = await signInAs(console, ana);
  });
  after(async () => {
    await console?.close();
    await store?.close();
  });

  it('shows the day in order of time with coverage in words and counts, audited, without other clinics', async () => {
    const page = await getPage(console, `/today?day=${DAY}`, anaCookie);
    assert.equal(page.statusCode, 200);
    const turing = page.body.indexOf('Alan Turing');
    const byron = page.body.indexOf('Ada Byron');
    assert.ok(turing > 0 && byron > turing, 'the 08:30 visit before the 11:00 one');
    assert.ok(page.body.includes('06/23/1912'));
    assert.ok(page.body.includes(`href="/patients/${patientIdOf(101)}"`));
    assert.match(page.body, /Verified, active<\/td>/);
    assert.match(page.body, /Not checked yet<\/td>/);
    assert.match(page.body, />Verified, active<\/a>: 1/);
    assert.ok(!page.body.includes('Noether'), "another clinic's visit is not shown");
    const [entry] = await trail.list({ action: 'visits.read' });
    assert.equal(entry?.tenant, tenant);
    assert.ok(entry?.fields.includes('patient.dateOfBirth'));
    assert.ok(!JSON.stringify(entry).includes('Turing'));
  });

  it('filters by coverage and shows a viewer initials and the year of birth only', async () => {
    const page = await getPage(console, `/today?day=${DAY}&coverage=not-checked`, await signInAs(console, vic));
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes('A. T.') && !page.body.includes('Turing') && !page.body.includes('Byron'));
    assert.ok(page.body.includes('Born 1912') && !page.body.includes('06/23/1912'));
  });

  it('is where the console opens', async () => {
    const home = await getPage(console, '/', anaCookie);
    assert.equal(home.headers.location, '/today');
  });
});
