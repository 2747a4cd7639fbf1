import assert from 'node:assert/strict';
import { parseCsvRequests, parseJsonlRequests } from '../../src/intake-files/read-requests.js';
import { validateRows } from '../../src/intake-files/validate-rows.js';

const header = 'id,payerId,firstName,lastName,dateOfBirth,state,placeOfServiceCode,specialtyCode';
const row = (id: string, dateOfBirth: string) => `${id},60054,Ada,Lovelace,${dateOfBirth},NY,11,PRC`;

describe('intake files: rows are checked with the intake validation', () => {
  it('reports CSV rows with impossible or future dates of birth by row, line and field, and keeps the others', () => {
    const csv = [
      header,
      row('r1', '02/29/2020'),
      row('r2', '02/30/2020'),
      row('r3', '04/31/2019'),
      row('r4', '02/29/2019'),
      row('r5', '12/31/2099'),
    ].join('\n');
    const { valid, invalid } = validateRows(parseCsvRequests(csv));
    assert.deepEqual(
      valid.map((v) => v.row),
      [1],
    );
    assert.deepEqual(
      invalid.map(({ row: r, line, param }) => [r, line, param]),
      [
        [2, 3, 'patient.dateOfBirth'],
        [3, 4, 'patient.dateOfBirth'],
        [4, 5, 'patient.dateOfBirth'],
        [5, 6, 'patient.dateOfBirth'],
      ],
    );
    for (const problem of invalid) assert.doesNotMatch(problem.message, /\d{2}\/\d{2}\/\d{4}/);
  });

  it('applies the same limits to JSONL lines: an over-long payerId and a lone surrogate are named', () => {
    const request = (overrides: Record<string, unknown>) =>
      JSON.stringify({
        id: 'j1',
        payerId: '60054',
        placeOfServiceCode: '11',
        specialtyCode: 'PRC',
        patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1985' },
        ...overrides,
      });
    const jsonl = [request({ payerId: 'p'.repeat(2049) }), request({ id: 'j\ud800' }), request({})].join('\n');
    const { valid, invalid } = validateRows(parseJsonlRequests(jsonl));
    assert.deepEqual(
      invalid.map((i) => [i.line, i.param]),
      [
        [1, 'payerId'],
        [2, 'id'],
      ],
    );
    assert.deepEqual(
      valid.map((v) => v.line),
      [3],
    );
  });
});
