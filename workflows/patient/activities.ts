import type { VerificationPatient } from '../../src/contract/index.js';
import type { PatientCopy } from './patient.js';

/** What a patient asks of the service itself (decision 0051). The workflow owns this port; `activities/` implements it. */
export interface PatientActivities {
  /**
   * Creates a discovery of the patient's coverage for a refresh, when the install is configured with where (the spec
   * does not show how); answers its id, or undefined when it is not (the refresh then verifies with the held payer).
   */
  discoverCoverage: (patient: VerificationPatient, payerId: string) => Promise<string | undefined>;
}

/**
 * The patient's copy for the front desk's day (src/visits), a local activity on every worker of the queue: kept in the
 * project's database (a no-op without one), where today's visits are read without asking thousands of workflows.
 */
export interface PatientCopyActivities {
  keepPatientCopy: (copy: PatientCopy) => Promise<void>;
}
