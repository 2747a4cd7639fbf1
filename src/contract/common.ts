import { z } from 'zod';
import { dateOfBirthProblem } from './dates.js';

/** The spec's date-of-birth pattern, character for character (MM/DD/YYYY, years 1900–2099). */
export const DATE_OF_BIRTH_PATTERN = /^(0[1-9]|1[0-2])\/(0[1-9]|[12][0-9]|3[01])\/(19|20)\d\d$/;
/** The pattern only: how dates are read back (the service's responses, inputs recorded in workflow histories). */
export const DateOfBirth = z.string().regex(DATE_OF_BIRTH_PATTERN, 'expected MM/DD/YYYY');

/**
 * A date of birth as a request may carry it (to the service, the sandbox or the intake): the pattern, a day that
 * exists (no 02/30, 04/31, 02/29 of a common year) and not after today. It reads the real clock when it parses, so
 * only the edges parse with it, never workflow code (whose clock is the workflow's and whose replays must not depend
 * on the day they run).
 */
export const RealDateOfBirth = DateOfBirth.superRefine((text, ctx) => {
  const problem = dateOfBirthProblem(text, Date.now());
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** The spec's 51 two-letter codes (50 states and DC). */
export const STATE_CODES = [
  'AK',
  'AL',
  'AR',
  'AZ',
  'CA',
  'CO',
  'CT',
  'DC',
  'DE',
  'FL',
  'GA',
  'HI',
  'IA',
  'ID',
  'IL',
  'IN',
  'KS',
  'KY',
  'LA',
  'MA',
  'MD',
  'ME',
  'MI',
  'MN',
  'MO',
  'MS',
  'MT',
  'NC',
  'ND',
  'NE',
  'NH',
  'NJ',
  'NM',
  'NV',
  'NY',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VA',
  'VT',
  'WA',
  'WI',
  'WV',
  'WY',
] as const;
export const StateCode = z.enum(STATE_CODES);
export type StateCode = z.infer<typeof StateCode>;

export const SPECIALTY_CODES = {
  ABA: 'Applied Behavioral Analysis',
  IOP: 'Intensive Outpatient Program',
  OCT: 'Occupational Therapy',
  PHT: 'Physical Therapy',
  PRC: 'Primary Care',
  PCH: 'Psychiatry',
  PSY: 'Psychotherapy',
  SLP: 'Speech-Language Pathology',
  SUD: 'Substance Use Disorder',
  UGC: 'Urgent Care',
  WMT: 'Weight Management',
} as const;
export const SpecialtyCode = z.enum(Object.keys(SPECIALTY_CODES) as [keyof typeof SPECIALTY_CODES]);
export type SpecialtyCode = z.infer<typeof SpecialtyCode>;

/** "two-digit code for the setting in which the service was provided". */
export const PlaceOfServiceCode = z.string().regex(/^\d{2}$/, 'expected two digits');

/** Identifiers the service assigns in UUID form; any hex UUID layout is accepted. */
export const Uuid = z.guid();

/** The caller's own identifier on a verification: at most 45 characters. */
export const CallerId = z.string().min(1).max(45);

export const Timestamp = z.iso.datetime({ offset: true });

const Name = z.string().min(1);
export const PersonName = Name;
