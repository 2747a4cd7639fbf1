import assert from 'node:assert/strict';
import { AppointmentUploadError, readAppointmentUpload } from '../../src/appointment-uploads/read-upload.js';

const HEADER =
  'appointmentRef,patientRef,firstName,lastName,dateOfBirth,state,memberId,payerId,dateOfService,timeZone,specialtyCode,placeOfServiceCode';
const row = (ref: string, mrn: string, date = '2031-03-04', lastName = 'Lovelace') =>
  `${ref},${mrn},Ada,${lastName},12/10/1985,NY,M1234567,60054,${date},America/Chicago,PRC,11`;
const csv = (...rows: string[]) => new TextEncoder().encode([HEADER, ...rows].join('\n') + '\n');

/** Schedule uploads (issue 35): read as the verification files are, rows and fields named, values never repeated. */
describe('reading a schedule upload', () => {
  it('reads CSV rows into appointments, the patient nested', () => {
    const [first] = readAppointmentUpload(csv(row('A-1', 'MRN-1')), 'csv');
    assert.deepEqual(first, {
      row: 1,
      line: 2,
      appointment: {
        appointmentRef: 'A-1',
        patientRef: 'MRN-1',
        patient: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          dateOfBirth: '12/10/1985',
          state: 'NY',
          memberId: 'M1234567',
        },
        payerId: '60054',
        dateOfService: '2031-03-04',
        timeZone: 'America/Chicago',
        specialtyCode: 'PRC',
        placeOfServiceCode: '11',
      },
    });
  });

  it('names the field and row of a bad row without its value, and reads the others', () => {
    const rows = readAppointmentUpload(csv(row('A-1', 'MRN-1'), row('A-2', 'MRN-2', '04/03/2031')), 'csv');
    assert.ok(rows[0]!.appointment);
    assert.equal(rows[1]!.row, 2);
    assert.equal(rows[1]!.line, 3);
    assert.equal(rows[1]!.problem?.param, 'dateOfService');
    assert.equal(rows[1]!.problem?.message, 'expected a date as YYYY-MM-DD', 'in the intake API’s words');
  });

  it('takes an ISO date of birth as the service’s, and an optional startTime, named when it is not HH:MM', () => {
    const header = `${HEADER},startTime`;
    const withTime = (ref: string, time: string) =>
      `${row(ref, `MRN-${ref}`).replace('12/10/1985', '1985-12-10')},${time}`;
    const text = [
      header,
      withTime('A-1', '09:30'),
      withTime('A-2', ''),
      withTime('A-3', '9:30'),
      withTime('A-4', '24:00'),
    ];
    const rows = readAppointmentUpload(new TextEncoder().encode(text.join('\n') + '\n'), 'csv');
    assert.equal(rows[0]!.appointment?.patient.dateOfBirth, '12/10/1985');
    assert.equal(rows[0]!.appointment?.startTime, '09:30');
    assert.equal(rows[1]!.appointment?.startTime, undefined, 'an empty cell is no time');
    for (const bad of rows.slice(2)) {
      assert.deepEqual(bad.problem, { param: 'startTime', message: 'expected a time as HH:MM (24-hour)' });
    }
  });

  it('refuses a row without appointmentRef, naming it', () => {
    const [bad] = readAppointmentUpload(csv(row('', 'MRN-1')), 'csv');
    assert.deepEqual(bad!.problem, { param: 'appointmentRef', message: 'required' });
  });

  it('refuses the second row of one appointment, naming the first', () => {
    const rows = readAppointmentUpload(csv(row('A-1', 'MRN-1'), row('A-1', 'MRN-1', '2031-03-05')), 'csv');
    assert.deepEqual(rows[1]!.problem, { param: 'appointmentRef', message: 'the same appointment as row 1' });
  });

  it('reads JSON Lines, a broken line being its row’s problem', () => {
    const line = JSON.stringify({
      appointmentRef: 'A-1',
      patientRef: 'MRN-1',
      patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1985' },
      payerId: '60054',
      dateOfService: '2031-03-04',
      specialtyCode: 'PRC',
      placeOfServiceCode: '11',
    });
    const rows = readAppointmentUpload(new TextEncoder().encode(`${line}\n{"patientRef": "Obscura\n`), 'jsonl');
    assert.equal(rows[0]!.appointment?.appointmentRef, 'A-1');
    assert.deepEqual(rows[1]!.problem, { param: 'body', message: 'the line is not valid JSON' });
    const [unknown] = readAppointmentUpload(
      new TextEncoder().encode(line.replace('{', '{"nickname":"Addie",')),
      'jsonl',
    );
    assert.equal(unknown!.problem?.param, 'nickname');
  });

  it('refuses a file it cannot read as a whole, naming the problem', () => {
    const whole =
      (bytes: Uint8Array, format: 'csv' | 'jsonl' = 'csv') =>
      () =>
        readAppointmentUpload(bytes, format);
    assert.throws(whole(new Uint8Array()), new AppointmentUploadError('the file is empty'));
    assert.throws(whole(new Uint8Array([0xff, 0xfe, 0x41])), /not UTF-8/);
    assert.throws(
      whole(new TextEncoder().encode('appointmentRef,nickname\nA,B\n')),
      /unknown CSV column in the header: column 2;/,
    );
    assert.throws(whole(new TextEncoder().encode(`${HEADER}\n`)), /holds no appointments/);
  });
});
