import { PatientsUnavailableError } from '../../src/patients/errors.js';
import type { Patients } from '../../src/patients/patients.js';
import type { IntakeDeps } from './deps.js';

/** The patients of this API, or PatientsUnavailableError (503 naming the setting) without PATIENT_ID_KEY. */
export function patientsOf(deps: IntakeDeps): Patients {
  if (!deps.patients) throw new PatientsUnavailableError();
  return { ...deps.patients, client: deps.client, taskQueue: deps.taskQueue };
}
