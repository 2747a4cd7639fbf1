import { normaliseDateOfBirth, normaliseLastName, normaliseMemberId } from '../../src/blind-index/normalise.js';

/**
 * What a person typed into a patient search form, trimmed (a value over `max` characters is dropped): shown in the form
 * again, which is the operator's own page, never a URL or a log.
 */
export function typedFields<K extends string>(
  body: Record<string, unknown> | undefined,
  names: readonly K[],
  max = Infinity,
): Partial<Record<K, string>> {
  const typed: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = body?.[name];
    const trimmed = typeof value === 'string' ? value.trim() : '';
    if (trimmed !== '' && trimmed.length <= max) typed[name] = trimmed;
  }
  return typed;
}

export interface PatientKeysTyped {
  lastName?: string;
  dateOfBirth?: string;
  memberId?: string;
}

/**
 * The first field at fault of a search by the blind index (last name + date of birth, or member id), named, never
 * repeated back; undefined when the search can run. `nothingTyped` is said when neither was given.
 */
export function patientKeysProblem(
  q: PatientKeysTyped,
  nothingTyped: string,
): { field: keyof PatientKeysTyped; message: string } | undefined {
  const { lastName, dateOfBirth, memberId } = q;
  if (memberId !== undefined && !normaliseMemberId(memberId)) {
    return { field: 'memberId', message: 'A member id holds letters or digits.' };
  }
  if (lastName !== undefined && !normaliseLastName(lastName)) {
    return { field: 'lastName', message: 'A last name holds letters.' };
  }
  if (dateOfBirth !== undefined && !normaliseDateOfBirth(dateOfBirth)) {
    return { field: 'dateOfBirth', message: 'Give the date as MM/DD/YYYY or pick it in the calendar.' };
  }
  if (lastName !== undefined && dateOfBirth === undefined) {
    return { field: 'dateOfBirth', message: 'Give the date of birth with the last name.' };
  }
  if (dateOfBirth !== undefined && lastName === undefined) {
    return { field: 'lastName', message: 'Give the last name with the date of birth.' };
  }
  if (lastName === undefined && memberId === undefined) return { field: 'lastName', message: nothingTyped };
  return undefined;
}
