import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readPatient, scheduleAppointment } from '../../src/patients/patients.js';
import { refreshTotals } from '../../workflows/refresh/refresh.js';
import { day, refreshSuite } from './refresh-suite.js';

describe('refreshWorkflow: the changes a refresh finds', function () {
  this.timeout(120_000);
  const s = refreshSuite();

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
      booked.push(await scheduleAppointment(s.p, { ...s.visit(tenant, day(25)), patient: { ...person, state: 'NY' } }));
    }
    await s.indexed(booked.map((b) => b.patientId));
    const control = (i: number, change: string, payerId?: string) =>
      fetch(`${s.h.sandbox.url}/sandbox/coverage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ patient: people[i], change, ...(payerId ? { payerId } : {}) }),
      }).then((r) => assert.equal(r.status, 200));
    await control(1, 'lose');
    const first = await s.refresh(tenant, 'one');
    assert.equal(refreshTotals(first.verifications!).verified, 6);
    await control(0, 'lose');
    await control(1, 'restore');
    await control(2, 'move-payer', '62308');
    await control(3, 'new-member-id');
    await control(4, 'fail');
    const second = await s.refresh(tenant, 'two');
    assert.deepEqual(refreshTotals(second.verifications!), { running: 0, verified: 5, failed: 1 });
    for (const [i, kind] of kinds.entries()) {
      const view = await readPatient(s.p, booked[i]!.patientId);
      assert.deepEqual(
        view.changes.map((c) => c.kinds),
        kind === 'none' ? [] : [[kind]],
        `patient ${i}: ${kind}`,
      );
    }
  });
});
