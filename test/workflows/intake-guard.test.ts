import assert from 'node:assert/strict';
import { guardIntake } from '../../workflows/verification/intake-guard.js';
import { v2Intake } from '../../testing/fixtures.js';

const v1 = { version: 'v1', patientId: '1000001', memberId: 'M7654321', payerId: '60054', npi: '1234567893' };

/** The param a refused request names, or 'ok'. */
const verdict = (request: unknown) => {
  const result = guardIntake(request);
  return result.ok ? 'ok' : result.param;
};

describe('the workflow’s structural guard of its input (no zod)', () => {
  it('accepts what the edges accept, reading a request without version as v2', () => {
    const result = guardIntake(v2Intake());
    assert.ok(result.ok);
    assert.equal(result.intake.version, 'v2');
    assert.equal(verdict(v1), 'ok');
    assert.equal(verdict(v2Intake({ payerId: undefined, discoveryId: 'disc-1' })), 'ok');
    assert.equal(verdict({ ...v1, memberId: undefined, discoveryId: 'disc-1' }), 'ok');
  });

  it('names the field a hand-typed start gets wrong, never its value', () => {
    assert.equal(verdict('a string'), 'body');
    assert.equal(verdict(v2Intake({ version: 'v3' })), 'version');
    assert.equal(verdict(v2Intake({ patient: 'Ada' })), 'patient');
    assert.equal(verdict(v2Intake({ specialtyCode: undefined })), 'specialtyCode');
    assert.equal(verdict(v2Intake({ payerId: 60054 })), 'payerId');
    assert.equal(verdict(v2Intake({ payerId: '' })), 'payerId');
    assert.equal(verdict(v2Intake({ payerId: undefined })), 'payerId');
    assert.equal(verdict({ ...v1, npi: undefined }), 'npi');
    assert.equal(verdict({ ...v1, memberId: undefined }), 'memberId');
    assert.equal(verdict(v2Intake({ subscriber: { firstName: 'A', lastName: 'B' } })), 'subscriber.dateOfBirth');
    const iso = guardIntake(
      v2Intake({ patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '1985-12-10' } }),
    );
    assert.deepEqual(iso, { ok: false, param: 'patient.dateOfBirth', message: 'expected MM/DD/YYYY' });
    assert.equal(
      verdict(v2Intake({ patient: { firstName: 'A', lastName: 'B', dateOfBirth: '13/01/1990' } })),
      'patient.dateOfBirth',
    );
  });
});
