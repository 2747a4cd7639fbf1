import assert from 'node:assert/strict';
import {
  INTAKE_LIMITS,
  VerificationIntake,
  VerificationPatient,
  isWellFormedText,
  validateIntake,
  type IntakeValidation,
} from '../../src/contract/index.js';
import { v2Intake } from '../../testing/fixtures.js';

const v1Intake = (overrides: Record<string, unknown> = {}) => ({
  version: 'v1',
  id: 'v1-row',
  patientId: '1000001',
  memberId: 'M123456',
  payerId: '60054',
  npi: '1234567893',
  ...overrides,
});

function refused(result: IntakeValidation): { param: string; message: string } {
  if (result.ok) assert.fail('expected a refusal');
  return result;
}

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('contract: intake validation (validateIntake)', () => {
  it('accepts a valid v2 and a valid v1 request', () => {
    assert.equal(validateIntake(v2Intake()).ok, true);
    assert.equal(validateIntake(v1Intake()).ok, true);
  });

  it('refuses a field it does not know, at any level, naming it and never its value', () => {
    const cases: [unknown, string][] = [
      [v2Intake({ patient: { ...v2Intake().patient, memberID: 'W1234567' } }), 'patient.memberID'],
      [v2Intake({ patient: { ...v2Intake().patient, ssn: '123-45-6789' } }), 'patient.ssn'],
      [v2Intake({ foo: 'bar' }), 'foo'],
      [
        v2Intake({ subscriber: { firstName: 'A', lastName: 'B', dateOfBirth: '01/02/1970', nickname: 'Al' } }),
        'subscriber.nickname',
      ],
      [v1Intake({ memberID: 'M1' }), 'memberID'],
    ];
    for (const [request, param] of cases) {
      const refusal = refused(validateIntake(request));
      assert.equal(refusal.param, param);
      assert.doesNotMatch(refusal.message, /W1234567|123-45-6789|bar|Al\b|M1\b/, 'no value echoed');
    }
  });

  it('refuses a payerId or discoveryId over 2 KB, and one just over the limit, naming the field', () => {
    const kb2 = 'p'.repeat(2049);
    assert.equal(refused(validateIntake(v2Intake({ payerId: kb2 }))).param, 'payerId');
    assert.equal(refused(validateIntake(v2Intake({ discoveryId: kb2 }))).param, 'discoveryId');
    const over = 'x'.repeat(INTAKE_LIMITS.identifier + 1);
    const atLimit = 'x'.repeat(INTAKE_LIMITS.identifier);
    assert.equal(refused(validateIntake(v2Intake({ payerId: over }))).param, 'payerId');
    assert.equal(validateIntake(v2Intake({ payerId: atLimit })).ok, true);
    assert.equal(refused(validateIntake(v1Intake({ patientId: over }))).param, 'patientId');
    assert.equal(refused(validateIntake(v1Intake({ memberId: over }))).param, 'memberId');
  });

  it('refuses names over the limit and a caller id over the spec’s 45 characters', () => {
    const long = 'n'.repeat(INTAKE_LIMITS.name + 1);
    const patient = { ...v2Intake().patient, lastName: long };
    assert.equal(refused(validateIntake(v2Intake({ patient }))).param, 'patient.lastName');
    const subscriber = { firstName: long, lastName: 'Doe', dateOfBirth: '01/02/1960' };
    assert.equal(refused(validateIntake(v2Intake({ subscriber }))).param, 'subscriber.firstName');
    assert.equal(refused(validateIntake(v2Intake({ id: 'i'.repeat(46) }))).param, 'id');
  });

  it('refuses a lone surrogate in any free-text field, naming it without echoing the value', () => {
    const lone = 'ab\ud800cd';
    const cases: [Record<string, unknown>, string][] = [
      [v2Intake({ id: lone }), 'id'],
      [v2Intake({ payerId: lone }), 'payerId'],
      [v2Intake({ discoveryId: '\udc00' }), 'discoveryId'],
      [v2Intake({ patient: { ...v2Intake().patient, firstName: lone } }), 'patient.firstName'],
      [v2Intake({ patient: { ...v2Intake().patient, memberId: lone } }), 'patient.memberId'],
      [v1Intake({ patientId: lone }), 'patientId'],
    ];
    for (const [request, param] of cases) {
      const { param: named, message } = refused(validateIntake(request));
      assert.equal(named, param);
      assert.match(message, /well-formed Unicode/);
      assert.doesNotMatch(message, /ab/);
    }
    // A surrogate pair is a real character (an emoji), not a lone surrogate.
    assert.equal(validateIntake(v2Intake({ patient: { ...v2Intake().patient, firstName: 'Zoë 😀' } })).ok, true);
    assert.equal(isWellFormedText('😀'), true);
    assert.equal(isWellFormedText('\ud83d'), false);
  });

  it('refuses dates of birth that cannot exist or are in the future, for the patient and the subscriber', () => {
    const withDob = (dateOfBirth: string) => v2Intake({ patient: { ...v2Intake().patient, dateOfBirth } });
    for (const date of ['02/30/2020', '04/31/2019', '02/29/2019', '12/31/2099']) {
      const { param, message } = refused(validateIntake(withDob(date)));
      assert.equal(param, 'patient.dateOfBirth', date);
      assert.doesNotMatch(message, /\d{2}\/\d{2}/, 'the value is not echoed');
    }
    assert.equal(validateIntake(withDob('02/29/2020')).ok, true);
    const subscriber = { firstName: 'Sam', lastName: 'Doe', dateOfBirth: '04/31/2019' };
    assert.equal(refused(validateIntake(v1Intake({ subscriber }))).param, 'subscriber.dateOfBirth');
    // The shape workflows read back keeps the pattern only: its answer never depends on the day of a replay.
    assert.equal(VerificationIntake.safeParse(withDob('12/31/2099')).success, true);
  });

  it('takes a date of birth as YYYY-MM-DD or MM/DD/YYYY and hands on the service’s MM/DD/YYYY', () => {
    const withDob = (dateOfBirth: string) => v2Intake({ patient: { ...v2Intake().patient, dateOfBirth } });
    for (const date of ['1985-12-10', '12/10/1985']) {
      const accepted = validateIntake(withDob(date));
      assert.ok(accepted.ok, date);
      assert.equal(accepted.intake.version === 'v2' && accepted.intake.patient.dateOfBirth, '12/10/1985');
    }
    const subscriber = { firstName: 'Sam', lastName: 'Doe', dateOfBirth: '1970-01-02' };
    const v1 = validateIntake(v1Intake({ subscriber }));
    assert.ok(v1.ok);
    assert.equal(v1.intake.subscriber?.dateOfBirth, '01/02/1970');
    // Refused by name, never echoed: a form neither, an ISO day that does not exist, an ISO day in the future.
    for (const [date, message] of [
      ['1985/12/10', 'expected a date as YYYY-MM-DD or MM/DD/YYYY'],
      ['10-12-1985', 'expected a date as YYYY-MM-DD or MM/DD/YYYY'],
      ['1985-02-30', 'not a date of the calendar'],
      ['2099-12-31', 'a date of birth cannot be in the future'],
    ] as const) {
      assert.deepEqual(refused(validateIntake(withDob(date))), { ok: false, param: 'patient.dateOfBirth', message });
    }
    // The service's own schema (the sandbox imitates it) and the recorded shape keep MM/DD/YYYY only.
    assert.equal(VerificationPatient.safeParse({ ...v2Intake().patient, dateOfBirth: '1985-12-10' }).success, false);
    assert.equal(VerificationIntake.safeParse(withDob('1985-12-10')).success, false);
  });

  it('keeps every accepted identifier within Temporal’s limits (1,000-byte workflow ids, 2,048-byte search attributes)', () => {
    // The worst case per UTF-16 code unit: 3 bytes of UTF-8 (BMP), 6 bytes as JSON (`\u00XX` escapes).
    const worstUtf8 = (prefix: string, units: number) => utf8Bytes(prefix) + units * 3;
    assert.ok(worstUtf8('verification-', INTAKE_LIMITS.callerId) <= 1000);
    assert.ok(worstUtf8('discovery-', INTAKE_LIMITS.identifier) <= 1000);
    assert.ok(INTAKE_LIMITS.identifier * 6 + 2 <= 2048, 'a search attribute value as JSON');
    const widest = '\u0001'.repeat(INTAKE_LIMITS.identifier);
    assert.equal(validateIntake(v2Intake({ payerId: widest })).ok, true);
    assert.ok(utf8Bytes(JSON.stringify(widest)) <= 2048);
  });

  it('leaves the recorded shape (VerificationIntake, what workflows read back) as it was, so histories replay', () => {
    const long = v2Intake({ payerId: 'p'.repeat(500), patient: { ...v2Intake().patient, firstName: 'f'.repeat(300) } });
    assert.equal(VerificationIntake.safeParse(long).success, true);
    assert.equal(validateIntake(long).ok, false);
  });
});
