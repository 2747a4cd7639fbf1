import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { sql } from 'kysely';
import type { Store } from '../../src/store/database.js';
import { Visits, visitCoverage, type VisitCoverage } from '../../src/visits/index.js';
import type { PatientCopy } from '../../workflows/patient/patient.js';
import { testCodecKeys } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { appointmentIdOf, patientCopy, patientIdOf } from '../../testing/patient-copies.js';

const DAY = '2031-03-04';
const entry = (workflowId: string, coverage: 'covered' | 'no-coverage' | 'failed') => ({
  at: 2,
  outcome: 'completed' as const,
  coverage,
  workflowId,
});

describe('visitCoverage', () => {
  const base = { patientId: patientIdOf(1), tenant: 'clinic-a' };
  const one = (copy: PatientCopy) => visitCoverage(copy.appointments[0]!, copy);
  const cases: [string, PatientCopy, VisitCoverage][] = [
    ['no answered check', patientCopy(base, [{ appointmentId: 'a', dateOfService: DAY }]), 'not-checked'],
    [
      'answered, not yet on the timeline',
      patientCopy(base, [{ appointmentId: 'a', dateOfService: DAY, checked: 'v1' }]),
      'checking',
    ],
    [
      'covered',
      patientCopy({ ...base, timeline: [entry('v1', 'covered')] }, [
        { appointmentId: 'a', dateOfService: DAY, checked: 'v1' },
      ]),
      'verified',
    ],
    [
      'no coverage',
      patientCopy({ ...base, timeline: [entry('v1', 'no-coverage')] }, [
        { appointmentId: 'a', dateOfService: DAY, checked: 'v1' },
      ]),
      'no-coverage',
    ],
    [
      'failed',
      patientCopy({ ...base, timeline: [entry('v1', 'failed')] }, [
        { appointmentId: 'a', dateOfService: DAY, checked: 'v1' },
      ]),
      'failed',
    ],
    [
      'an unseen change of that verification',
      patientCopy(
        {
          ...base,
          timeline: [entry('v1', 'covered')],
          changes: [{ changeId: 'c', at: 2, kinds: ['payer-changed'], workflowId: 'v1', previousWorkflowId: 'v0' }],
        },
        [{ appointmentId: 'a', dateOfService: DAY, checked: 'v1' }],
      ),
      'changed',
    ],
    [
      'a change already seen',
      patientCopy(
        {
          ...base,
          timeline: [entry('v1', 'covered')],
          changes: [
            { changeId: 'c', at: 2, kinds: ['payer-changed'], workflowId: 'v1', previousWorkflowId: 'v0', seenAt: 3 },
          ],
        },
        [{ appointmentId: 'a', dateOfService: DAY, checked: 'v1' }],
      ),
      'verified',
    ],
  ];
  for (const [what, copy, expected] of cases) it(`is ${expected} for ${what}`, () => assert.equal(one(copy), expected));
});

describe('Visits', () => {
  let store: Store;
  let visits: Visits;
  const tenant = 'clinic-a';

  before(async () => {
    store = await testStore();
    visits = new Visits(store, testCodecKeys());
    // Clinic A's day: four patients, times out of order, one without a time, one cancelled, one the day after.
    const copies = [
      patientCopy({ patientId: patientIdOf(1), tenant, timeline: [entry('v1', 'covered')] }, [
        {
          appointmentId: appointmentIdOf(patientIdOf(1), 1),
          dateOfService: DAY,
          startTime: '14:30',
          checked: 'v1',
          providerGroupId: 'pg-1',
        },
      ]),
      patientCopy(
        {
          patientId: patientIdOf(2),
          tenant,
          patient: { firstName: 'Grace', lastName: 'Hopper', dateOfBirth: '12/09/1906' },
        },
        [
          { appointmentId: appointmentIdOf(patientIdOf(2), 1), dateOfService: DAY, startTime: '09:15', checked: 'v2' },
          { appointmentId: appointmentIdOf(patientIdOf(2), 2), dateOfService: '2031-03-05', startTime: '09:00' },
        ],
      ),
      patientCopy({ patientId: patientIdOf(3), tenant }, [
        { appointmentId: appointmentIdOf(patientIdOf(3), 1), dateOfService: DAY },
      ]),
      patientCopy({ patientId: patientIdOf(4), tenant }, [
        {
          appointmentId: appointmentIdOf(patientIdOf(4), 1),
          dateOfService: DAY,
          startTime: '08:00',
          status: 'cancelled',
        },
      ]),
      // Another clinic, the same day.
      patientCopy({ patientId: patientIdOf(9), tenant: 'clinic-b', index: ['tok-b'] }, [
        { appointmentId: appointmentIdOf(patientIdOf(9), 1), dateOfService: DAY, startTime: '07:00' },
      ]),
    ];
    for (const copy of copies) await visits.keep(copy);
  });
  after(() => store.close());

  it('lists a day by start time, those without one last, cancelled ones off it, with counts', async () => {
    const day = await visits.day({ day: DAY, tenants: [tenant] });
    assert.deepEqual(
      day.visits.map((v) => [v.startTime, v.patientId]),
      [
        ['09:15', patientIdOf(2)],
        ['14:30', patientIdOf(1)],
        [undefined, patientIdOf(3)],
      ],
    );
    assert.equal(day.visits[0]!.patient?.lastName, 'Hopper');
    assert.deepEqual(
      { verified: day.counts.verified, checking: day.counts.checking, notChecked: day.counts['not-checked'] },
      { verified: 1, checking: 1, notChecked: 1 },
    );
    assert.equal(day.total, 3);
    assert.deepEqual(day.providers, ['pg-1']);
    assert.deepEqual(day.ahead, [{ day: '2031-03-05', visits: 1 }]);
  });

  it('filters by coverage and provider, refines checking to needs-input, and pages', async () => {
    const refined = await visits.day({ day: DAY, tenants: [tenant], awaitingInput: ['v2'], coverage: 'needs-input' });
    assert.deepEqual(
      refined.visits.map((v) => v.patientId),
      [patientIdOf(2)],
    );
    assert.equal(refined.counts['needs-input'], 1);
    assert.equal(refined.counts.checking, 0);
    const provider = await visits.day({ day: DAY, tenants: [tenant], providerGroupId: 'pg-1' });
    assert.deepEqual(
      provider.visits.map((v) => v.patientId),
      [patientIdOf(1)],
    );
    const second = await visits.day({ day: DAY, tenants: [tenant], pageSize: 2, page: 2 });
    assert.deepEqual([second.page, second.pages, second.visits.map((v) => v.patientId)], [2, 2, [patientIdOf(3)]]);
  });

  it("never returns another tenant's visits, copies or matches", async () => {
    const a = await visits.day({ day: DAY, tenants: [tenant] });
    assert.ok(a.visits.every((v) => v.tenant === tenant));
    assert.equal((await visits.day({ day: DAY, tenants: [] })).total, 0);
    assert.equal((await visits.day({ day: DAY, tenants: null })).total, 4);
    assert.equal((await visits.copies([patientIdOf(9)], [tenant])).size, 0);
    assert.deepEqual(await visits.find(['tok-b'], [tenant]), []);
    assert.deepEqual(await visits.find(['tok-b'], ['clinic-b']), [patientIdOf(9)]);
  });

  it('ignores an older revision and a repeated one', async () => {
    const patientId = patientIdOf(20);
    const appointmentId = appointmentIdOf(patientId, 1);
    const newer = patientCopy({ patientId, tenant: 'clinic-c', revision: 5 }, [
      { appointmentId, dateOfService: DAY, startTime: '10:00' },
    ]);
    const older = patientCopy({ patientId, tenant: 'clinic-c', revision: 4 }, [
      { appointmentId, dateOfService: '2031-01-01' },
    ]);
    await visits.keep(newer);
    await visits.keep(older);
    await visits.keep(newer);
    const kept = await visits.copies([patientId], ['clinic-c']);
    assert.equal(kept.get(patientId)?.revision, 5);
    const day = await visits.day({ day: DAY, tenants: ['clinic-c'] });
    assert.deepEqual(
      day.visits.map((v) => v.startTime),
      ['10:00'],
    );
  });

  it('keeps a past visit the copy no longer holds, and marks a cancelled one', async () => {
    const patientId = patientIdOf(30);
    const kept = appointmentIdOf(patientId, 1);
    await visits.keep(
      patientCopy({ patientId, tenant: 'clinic-d', revision: 1 }, [{ appointmentId: kept, dateOfService: DAY }]),
    );
    await visits.keep(patientCopy({ patientId, tenant: 'clinic-d', revision: 2 }, []));
    assert.equal((await visits.day({ day: DAY, tenants: ['clinic-d'] })).total, 1);
    await visits.keep(
      patientCopy({ patientId, tenant: 'clinic-d', revision: 3 }, [
        { appointmentId: kept, dateOfService: DAY, status: 'cancelled' },
      ]),
    );
    assert.equal((await visits.day({ day: DAY, tenants: ['clinic-d'] })).total, 0);
  });

  it('holds no patient value readable without the keys', async () => {
    const { rows } = await sql<Record<string, unknown>>`select * from patient_copies`.execute(store.db);
    const visitRows = await sql<Record<string, unknown>>`select * from visits`.execute(store.db);
    const raw = JSON.stringify([rows, visitRows.rows]);
    for (const value of ['Hopper', 'Grace', 'Lovelace', '1906', '12/10/1985', 'M-123456']) {
      assert.ok(!raw.includes(value), `${value} is readable in the tables`);
    }
    const withoutKeys = new Visits(store, undefined);
    await assert.rejects(withoutKeys.copies([patientIdOf(2)], [tenant]), { name: 'SealError' });
  });
});
