import type { VerificationPatient } from '../../src/contract/index.js';

/** What a patient asks of the service itself (decision 0051). The workflow owns this port; `activities/` implements it. */
export interface PatientActivities {
  /**
   * Creates a discovery of the patient's coverage for a refresh, when the install is configured with where (the spec
   * does not show how); answers its id, or undefined when it is not (the refresh then verifies with the held payer).
   */
  discoverCoverage: (patient: VerificationPatient, payerId: string) => Promise<string | undefined>;
}
