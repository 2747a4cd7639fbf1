/**
 * What the index hashes: a value as people type it in many ways, made one. Two spellings of one patient must give one
 * hash (`O'Brien`, `o brien`, `Ó Brien`), and a date of birth in the intake's form or an ISO date the same day.
 */

/** Letters only, without accents, upper case: `Ó'Brien-Smith` → `OBRIENSMITH`. Undefined when nothing is left. */
export function normaliseLastName(lastName: string): string | undefined {
  const letters = lastName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}]/gu, '')
    .toUpperCase();
  return letters || undefined;
}

const MMDDYYYY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `MM/DD/YYYY` (the intake's) or `YYYY-MM-DD` (a date field's) as `YYYYMMDD`; undefined for anything else. */
export function normaliseDateOfBirth(dateOfBirth: string): string | undefined {
  const text = dateOfBirth.trim();
  const us = MMDDYYYY.exec(text);
  if (us) return `${us[3]}${us[1]!.padStart(2, '0')}${us[2]!.padStart(2, '0')}`;
  const iso = ISO.exec(text);
  return iso ? `${iso[1]}${iso[2]}${iso[3]}` : undefined;
}

/** Letters and digits only, upper case: `abc-123 45` → `ABC12345`. Undefined when nothing is left. */
export function normaliseMemberId(memberId: string): string | undefined {
  const kept = memberId
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toUpperCase();
  return kept || undefined;
}
