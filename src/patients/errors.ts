/** The patient routes without PATIENT_ID_KEY: 503 naming the setting, as the event routes do without a database. */
export class PatientsUnavailableError extends Error {
  override name = 'PatientsUnavailableError';
  constructor() {
    super('patients need PATIENT_ID_KEY (or its file, PATIENT_ID_KEY_FILE)');
  }
}
