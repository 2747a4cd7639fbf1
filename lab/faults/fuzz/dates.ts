import type { Prng } from './prng.js';

/** Dates in the spec's MM/DD/YYYY form; the pattern allows years 1900-2099. */
export function formatDate(year: number, month: number, day: number): string {
  return `${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}/${year}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const isLeap = (year: number) => daysInMonth(year, 2) === 29;

/** A real date well in the past: a date of birth every version of the contract accepts. */
export function pastDate(r: Prng): string {
  const year = r.int(1920, new Date().getUTCFullYear() - 1);
  const month = r.int(1, 12);
  return formatDate(year, month, r.int(1, daysInMonth(year, month)));
}

/**
 * A date that matches the pattern but cannot exist: the 30th or 31st of February, the 31st of a 30-day month, or the
 * 29th of February of a year that is not a leap year (1900 included: divisible by 100, not by 400).
 */
export function impossibleDate(r: Prng): string {
  const year = r.int(1920, 2020);
  switch (r.int(0, 2)) {
    case 0:
      return formatDate(year, 2, r.pick([30, 31]));
    case 1:
      return formatDate(year, r.pick([4, 6, 9, 11]), 31);
    default: {
      const nonLeap = [1900, 2019, 2021, 1999, 2023, 1985].filter((y) => !isLeap(y));
      return formatDate(r.pick(nonLeap), 2, 29);
    }
  }
}

/** A real date after this year (the last one the pattern allows, 12/31/2099, included): a future date of birth. */
export function futureDate(r: Prng): string {
  if (r.chance(0.2)) return '12/31/2099';
  const year = r.int(new Date().getUTCFullYear() + 1, 2099);
  const month = r.int(1, 12);
  return formatDate(year, month, r.int(1, daysInMonth(year, month)));
}

/** Strings that break the pattern itself: other formats, out-of-range parts, years outside 1900-2099. */
export function badDatePattern(r: Prng): string {
  const year = r.int(1930, 2010);
  return r.pick([
    `${year}-0${r.int(1, 9)}-1${r.int(0, 9)}`,
    `0${r.int(1, 9)}/1${r.int(0, 9)}/${String(year).slice(2)}`,
    `${r.int(1, 9)}/${r.int(1, 9)}/${year}`,
    `13/0${r.int(1, 9)}/${year}`,
    `0${r.int(1, 9)}/32/${year}`,
    `00/1${r.int(0, 9)}/${year}`,
    `0${r.int(1, 9)}/00/${year}`,
    `0${r.int(1, 9)}/1${r.int(0, 9)}/18${r.int(10, 99)}`,
    `0${r.int(1, 9)}/1${r.int(0, 9)}/21${r.int(10, 99)}`,
    `0${r.int(1, 9)}-1${r.int(0, 9)}-${year}`,
    ` 0${r.int(1, 9)}/1${r.int(0, 9)}/${year}`,
    `0${r.int(1, 9)}/1${r.int(0, 9)}/${year}\n`,
  ]);
}
