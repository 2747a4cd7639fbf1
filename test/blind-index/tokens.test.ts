import assert from 'node:assert/strict';
import { generateKey, codecKeys } from '../../src/codec/keys.js';
import { CodecKeyError } from '../../src/codec/keys.js';
import { blindIndexKeysOf, derivedBlindIndexKeys, loadBlindIndexKeys } from '../../src/blind-index/keys.js';
import { normaliseDateOfBirth, normaliseLastName, normaliseMemberId } from '../../src/blind-index/normalise.js';
import { indexTokens, intakePatientKeys, searchTokens } from '../../src/blind-index/tokens.js';
import { loadConfig } from '../../src/config.js';
import { validateIntake } from '../../src/contract/index.js';

const v2Request = () => ({
  patient: { firstName: 'A', lastName: 'B', dateOfBirth: '01/02/1990', state: 'WA', memberId: 'M1' },
  payerId: '60054',
  placeOfServiceCode: '11',
  specialtyCode: 'PRC',
});
const patient = { lastName: "O'Brien-Smith", dateOfBirth: '04/05/1967', memberId: 'abc-123 45' };

describe('the blind index: normalising and keyed hashes', () => {
  it('normalises the spellings people type into one', () => {
    assert.equal(normaliseLastName("Ó'Brien-Smith"), 'OBRIENSMITH');
    assert.equal(normaliseLastName('  o brien smith '), 'OBRIENSMITH');
    assert.equal(normaliseLastName("'- "), undefined);
    assert.equal(normaliseDateOfBirth('04/05/1967'), '19670405');
    assert.equal(normaliseDateOfBirth('4/5/1967'), '19670405');
    assert.equal(normaliseDateOfBirth('1967-04-05'), '19670405');
    assert.equal(normaliseDateOfBirth('05.04.1967'), undefined);
    assert.equal(normaliseMemberId('abc-123 45'), 'ABC12345');
    assert.equal(normaliseMemberId(' - '), undefined);
  });

  it('gives the same tokens for two spellings of one patient, and holds no patient value', () => {
    const keys = blindIndexKeysOf(generateKey('b1'));
    const a = indexTokens(keys, 'clinic-a', patient);
    const b = indexTokens(keys, 'clinic-a', {
      lastName: 'obrien smith',
      dateOfBirth: '1967-04-05',
      memberId: 'ABC12345',
    });
    assert.equal(a.length, 2);
    assert.deepEqual(a, b);
    for (const token of a) {
      assert.match(token, /^[A-Za-z0-9_-]{22}$/);
      for (const value of ['OBRIEN', 'obrien', '1967', '12345', 'ABC']) assert.ok(!token.includes(value), token);
    }
  });

  it('keys each token by tenant: the same patient at another clinic, or with no tenant, matches nothing', () => {
    const keys = blindIndexKeysOf(generateKey('b1'));
    const a = indexTokens(keys, 'clinic-a', patient);
    for (const other of [indexTokens(keys, 'clinic-b', patient), indexTokens(keys, undefined, patient)]) {
      assert.deepEqual(
        a.filter((t) => other.includes(t)),
        [],
      );
    }
  });

  it('indexes with the current key and searches with every key of the ring (rotation)', () => {
    const old = generateKey('old');
    const before = blindIndexKeysOf(old);
    const indexed = indexTokens(before, 't', patient);
    const after = blindIndexKeysOf(`${generateKey('new')},${old}`);
    assert.equal(after.current.id, 'new');
    assert.notDeepEqual(indexTokens(after, 't', patient), indexed, 'new starts use the new key');
    const searched = searchTokens(after, ['t'], patient);
    assert.equal(searched.length, 4);
    for (const token of indexed)
      assert.ok(searched.includes(token), 'a verification indexed before the rotation is found');
    assert.equal(blindIndexKeysOf(`${generateKey('x')},${old}`, 'old').current.id, 'old');
    assert.throws(() => blindIndexKeysOf(old, 'missing'), CodecKeyError);
    assert.throws(() => blindIndexKeysOf('k:short'), /BLIND_INDEX_KEYS: key "k" must be 32 bytes/);
  });

  it('derives its keys from the codec keys when it has none of its own, never equal to them', async () => {
    const codec = `${generateKey('c2')},${generateKey('c1')}`;
    const derived = derivedBlindIndexKeys(codecKeys(codec, 'test'));
    assert.equal(derived.current.id, 'c2');
    assert.equal(derived.all.length, 2);
    assert.ok(!derived.current.key.equals(codecKeys(codec, 'test').current.key));
    const loaded = await loadBlindIndexKeys(loadConfig('intake', { CODEC_KEYS: codec }).codec);
    assert.deepEqual(loaded?.current.key, derived.current.key);
    const own = generateKey('own');
    assert.equal(
      (await loadBlindIndexKeys(loadConfig('intake', { CODEC_KEYS: codec, BLIND_INDEX_KEYS: own }).codec))?.current.id,
      'own',
    );
    assert.equal(await loadBlindIndexKeys(loadConfig('intake', { ENCRYPTION_DISABLED: 'true' }).codec), undefined);
  });

  it('reads what an intake request is found by: v2 name, date of birth and member id; v1 its member id', () => {
    const v2 = validateIntake(v2Request());
    assert.ok(v2.ok);
    assert.deepEqual(intakePatientKeys(v2.intake), { lastName: 'B', dateOfBirth: '01/02/1990', memberId: 'M1' });
    // Booked with an ISO date of birth, found by the service's form, and the other way round: one token.
    const keys = blindIndexKeysOf(generateKey('b1'));
    const iso = validateIntake({ ...v2Request(), patient: { ...v2Request().patient, dateOfBirth: '1990-01-02' } });
    assert.ok(iso.ok);
    const booked = indexTokens(keys, 'clinic-a', intakePatientKeys(iso.intake));
    for (const dateOfBirth of ['01/02/1990', '1990-01-02']) {
      const [found] = searchTokens(keys, ['clinic-a'], { lastName: 'b', dateOfBirth });
      assert.ok(found && booked.includes(found), dateOfBirth);
    }
    const v1 = validateIntake({ version: 'v1', patientId: '1', memberId: 'M2', payerId: '1', npi: '1234567893' });
    assert.ok(v1.ok);
    assert.deepEqual(intakePatientKeys(v1.intake), { memberId: 'M2' });
  });
});
