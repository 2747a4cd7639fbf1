import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { patientIdOf } from '../../src/patients/patient-id.js';
import { dayStartsAt, isTimeZone } from '../../src/patients/visit-day.js';
import { checksFor, nextCheck, reusableEntry } from '../../workflows/patient/check-plan.js';
import { coverageChanges } from '../../workflows/patient/coverage-changes.js';
import { hasStalled, watchAnswers } from '../../workflows/refresh/stall-watch.js';
import type { Appointment, CoverageEntry, CoverageState } from '../../workflows/patient/patient.js';
import type { RefreshAnswered } from '../../workflows/refresh/refresh.js';
import { DEFAULT_CHECK_POLICY } from '../../workflows/patient/patient.js';

const entry = (coverage: CoverageState, fields: Partial<CoverageEntry> = {}): CoverageEntry => ({
  at: 0,
  outcome: coverage === 'covered' ? 'completed' : coverage === 'no-coverage' ? 'no-coverage' : 'failed',
  coverage,
  workflowId: `w-${Math.random()}`,
  ...fields,
});

describe('patients: ids, visit days, check plans and coverage changes', () => {
  it("derives a patient's id from tenant and reference, keyed: stable, and nothing of either in it", () => {
    const key = randomBytes(32);
    const id = patientIdOf(key, 'clinic-a', 'MRN-1234');
    assert.match(id, /^pt_[0-9a-f]{32}$/);
    assert.equal(patientIdOf(key, 'clinic-a', 'MRN-1234'), id, 'the same reference finds the same patient');
    assert.notEqual(patientIdOf(key, 'clinic-b', 'MRN-1234'), id, 'another tenant, another patient');
    assert.notEqual(patientIdOf(randomBytes(32), 'clinic-a', 'MRN-1234'), id, 'without the key, no id');
    assert.notEqual(patientIdOf(key, 'clinic-a:MRN', '-1234'), patientIdOf(key, 'clinic-a', ':MRN-1234'));
  });

  it('finds 00:00 of a date of service in its time zone, across daylight saving', () => {
    assert.equal(dayStartsAt('2026-07-01', 'UTC'), Date.UTC(2026, 6, 1));
    assert.equal(dayStartsAt('2026-07-01', 'America/New_York'), Date.UTC(2026, 6, 1, 4));
    assert.equal(dayStartsAt('2026-01-15', 'America/New_York'), Date.UTC(2026, 0, 15, 5));
    assert.equal(dayStartsAt('2026-03-08', 'America/New_York'), Date.UTC(2026, 2, 8, 5), 'the day DST starts');
    assert.equal(dayStartsAt('2026-07-01', 'Asia/Kolkata'), Date.UTC(2026, 5, 30, 18, 30));
    assert.equal(isTimeZone('Europe/Paris'), true);
    assert.equal(isTimeZone('Mars/Olympus'), false);
  });

  it('plans 3 days before and 06:00 of the visit by default, and sleeps until the earliest waiting one', () => {
    const day = Date.UTC(2026, 6, 10);
    const checks = checksFor(day, DEFAULT_CHECK_POLICY.offsets);
    assert.deepEqual(
      checks.map((c) => c.at),
      [day - 3 * 86_400_000, day + 6 * 3_600_000],
    );
    const appointment = (id: string, at: number, status: Appointment['status'] = 'scheduled'): Appointment => ({
      appointmentId: id,
      status,
      dateOfService: '',
      timeZone: 'UTC',
      dayStartsAt: at,
      specialtyCode: 'PRC',
      placeOfServiceCode: '11',
      checks: checksFor(at, DEFAULT_CHECK_POLICY.offsets),
    });
    const later = appointment('later', day + 86_400_000);
    const cancelled = appointment('cancelled', day - 86_400_000, 'cancelled');
    assert.equal(nextCheck([later, appointment('sooner', day), cancelled])?.appointment.appointmentId, 'sooner');
    assert.equal(nextCheck([cancelled]), undefined);
  });

  it('reuses the latest answer within the window, never a failure', () => {
    const timeline = [entry('covered', { at: 1000 }), entry('failed', { at: 5000 })];
    assert.equal(reusableEntry(timeline, 10_000, 10)?.at, 1000);
    assert.equal(reusableEntry(timeline, 12_000, 10), undefined, 'older than the window');
    assert.equal(reusableEntry([entry('failed', { at: 9000 })], 10_000, 10), undefined);
  });

  it('names every kind of change, and none when nothing changed', () => {
    const covered = entry('covered', { payerId: 'P1', memberId: 'M1' });
    assert.deepEqual(coverageChanges([], covered), [], 'a first check changes nothing');
    assert.deepEqual(coverageChanges([covered], entry('covered', { payerId: 'P1', memberId: 'M1' })), []);
    assert.deepEqual(coverageChanges([covered], entry('no-coverage')), ['coverage-lost']);
    assert.deepEqual(coverageChanges([entry('no-coverage')], covered), ['coverage-found']);
    assert.deepEqual(coverageChanges([covered], entry('covered', { payerId: 'P2', memberId: 'M1' })), [
      'payer-changed',
    ]);
    assert.deepEqual(coverageChanges([covered], entry('covered', { payerId: 'P1', memberId: 'M2' })), [
      'member-id-changed',
    ]);
    assert.deepEqual(coverageChanges([covered], entry('covered', { payerId: 'P2', memberId: 'M2' })), [
      'payer-changed',
      'member-id-changed',
    ]);
    assert.deepEqual(coverageChanges([covered], entry('covered', { payerId: 'P1' })), [], 'an unknown id is no news');
    assert.deepEqual(coverageChanges([covered], entry('failed')), ['verification-failing']);
    assert.deepEqual(coverageChanges([covered, entry('failed')], entry('failed')), [], 'reported once');
    assert.deepEqual(coverageChanges([covered, entry('failed')], entry('no-coverage')), ['coverage-lost']);
    assert.deepEqual(coverageChanges([entry('failed')], covered), [], 'nothing answered before');
  });

  describe("a refresh's stall rule", () => {
    const watch = (looks: [at: number, asked: number, patients: number][]) =>
      looks.reduce<RefreshAnswered | undefined>(
        (answered, [at, asked, patients]) => watchAnswers(answered, { at, asked, patients }),
        undefined,
      )!;

    it('stalls only after stalledMs without one more patient taking the refresh, however many looks', () => {
      // A worker restart: a hundred looks in 9 s, asking, and nobody answers yet. Not stalled.
      const restart: [number, number, number][] = [];
      for (let at = 0; at < 9_900; at += 90) restart.push([at, 200, 0]);
      assert.equal(hasStalled(watch(restart), 9_900, 10_000), false);
      const answered = watch([...restart, [9_950, 200, 150], [19_000, 5, 150]]);
      assert.deepEqual(answered, { patients: 150, since: 9_950 }, 'answers came back at 9,950');
      assert.equal(hasStalled(answered, 19_000, 10_000), false);
      assert.equal(hasStalled(answered, 19_950, 10_000), true, '10 s without one more answer');
    });

    it('restarts its clock on a look that asked nobody', () => {
      assert.deepEqual(
        watch([
          [0, 3, 7],
          [5_000, 0, 7],
          [5_500, 3, 7],
        ]),
        { patients: 7, since: 5_000 },
      );
    });
  });
});
