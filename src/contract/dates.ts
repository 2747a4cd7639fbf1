/**
 * Dates of birth beyond the spec's pattern: the day must exist, and must not be after today. Pure functions of the
 * text and a clock reading, so they are tested with a fixed clock; the schemas that use them read the real clock when
 * they parse, which is why workflow code never parses with them (see `RealDateOfBirth`).
 */

const MMDDYYYY = /^(\d{2})\/(\d{2})\/(\d{4})$/;

interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

function readDate(text: string): CalendarDay | undefined {
  const match = MMDDYYYY.exec(text);
  if (!match) return undefined;
  return { month: Number(match[1]), day: Number(match[2]), year: Number(match[3]) };
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** `MM/DD/YYYY` names a day of the Gregorian calendar: 02/29 only in leap years, no 04/31, no 02/30. */
export function isCalendarDate(text: string): boolean {
  const date = readDate(text);
  if (!date || date.month < 1 || date.month > 12) return false;
  return date.day >= 1 && date.day <= daysInMonth(date.year, date.month);
}

/**
 * The earliest time zone is UTC+14 (Line Islands): a birth registered there just after midnight has today's date while
 * most of the world is still on yesterday. A date is "in the future" only when it is after today everywhere.
 */
const LATEST_UTC_OFFSET_MS = 14 * 60 * 60 * 1000;

/** The date is after today's date in every time zone at `nowMs`. */
export function isAfterToday(text: string, nowMs: number): boolean {
  const date = readDate(text);
  if (!date) return false;
  const today = new Date(nowMs + LATEST_UTC_OFFSET_MS);
  const given = [date.year, date.month, date.day];
  const current = [today.getUTCFullYear(), today.getUTCMonth() + 1, today.getUTCDate()];
  for (let i = 0; i < 3; i++) if (given[i] !== current[i]) return given[i]! > current[i]!;
  return false;
}

/** Why a date of birth of the spec's pattern is not acceptable at `nowMs`, or undefined when it is. */
export function dateOfBirthProblem(text: string, nowMs: number): string | undefined {
  if (!readDate(text)) return undefined; // the pattern's own message covers it
  if (!isCalendarDate(text)) return 'not a date of the calendar';
  if (isAfterToday(text, nowMs)) return 'a date of birth cannot be in the future';
  return undefined;
}

/** ISO 8601's calendar date (`YYYY-MM-DD`), the intake's other form of a date of birth, in the service's year range. */
export const ISO_DATE_OF_BIRTH_PATTERN = /^(19|20)\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/;

/** `YYYY-MM-DD` as the service's `MM/DD/YYYY`; any other text as it is (the service's pattern judges it). */
export function serviceDateOfBirth(text: string): string {
  if (!ISO_DATE_OF_BIRTH_PATTERN.test(text)) return text;
  const [year, month, day] = text.split('-');
  return `${month}/${day}/${year}`;
}
