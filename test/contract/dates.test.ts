import assert from 'node:assert/strict';
import { dateOfBirthProblem, isAfterToday, isCalendarDate } from '../../src/contract/index.js';

describe('contract: dates of birth that exist and are not in the future', () => {
  it('knows the days of each month and the leap years', () => {
    for (const date of ['02/29/2020', '02/29/2000', '01/31/2021', '04/30/2019', '12/31/1999', '02/28/2019']) {
      assert.equal(isCalendarDate(date), true, date);
    }
    for (const date of ['02/30/2020', '04/31/2019', '02/29/2019', '02/29/1900', '06/31/2001', '11/31/1990']) {
      assert.equal(isCalendarDate(date), false, date);
    }
  });

  it('calls a date in the future only when it is after today in every time zone', () => {
    const noonUtc = Date.UTC(2024, 5, 15, 12); // 06/15/2024 12:00 UTC: already 06/16 at UTC+14
    assert.equal(isAfterToday('06/15/2024', noonUtc), false);
    assert.equal(isAfterToday('06/16/2024', noonUtc), false, 'today somewhere on Earth');
    assert.equal(isAfterToday('06/17/2024', noonUtc), true);
    assert.equal(isAfterToday('01/01/2025', noonUtc), true);
    assert.equal(isAfterToday('12/31/2099', Date.now()), true);
    const earlyUtc = Date.UTC(2024, 5, 15, 5); // 06/15 19:00 at UTC+14
    assert.equal(isAfterToday('06/16/2024', earlyUtc), true);
  });

  it('names the problem without the value, and leaves a pattern mismatch to the pattern', () => {
    const now = Date.UTC(2024, 5, 15);
    assert.equal(dateOfBirthProblem('02/30/2020', now), 'not a date of the calendar');
    assert.equal(dateOfBirthProblem('12/31/2099', now), 'a date of birth cannot be in the future');
    assert.equal(dateOfBirthProblem('02/29/2020', now), undefined);
    assert.equal(dateOfBirthProblem('1985-12-10', now), undefined);
  });
});
