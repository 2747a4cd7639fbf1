/** The patient routes without PATIENT_ID_KEY: 503 naming the setting, as the event routes do without a database. */
export class PatientsUnavailableError extends Error {
  override name = 'PatientsUnavailableError';
  constructor() {
    super('patients need PATIENT_ID_KEY (or its file, PATIENT_ID_KEY_FILE)');
  }
}

/**
 * A date of service whose day has ended where the visit takes place (its `timeZone`): there is nothing left to verify
 * ahead of it, and the check planned before it would wait for a day that never comes. Today is still taken (a
 * same-day visit is checked at once). The message names the field, never the date.
 */
export class PastDateOfServiceError extends Error {
  override name = 'PastDateOfServiceError';
  readonly param = 'dateOfService';
  constructor() {
    super('the visit’s day has passed: a date of service must be today or later, in its timeZone');
  }
}
