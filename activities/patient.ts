import type { EligibilityClient } from '../src/client/index.js';
import type { PatientActivities } from '../workflows/patient/index.js';
import { serviceCall, type ActivityDeps } from './index.js';

/** The patients' service calls: a discovery of a patient's coverage for a refresh (decision 0051). */
export function createPatientActivities(client: EligibilityClient, deps: ActivityDeps = {}): PatientActivities {
  return {
    discoverCoverage: async (patient, payerId) => {
      // The discovery needs the patient's state; without it the refresh verifies with the held payer.
      if (patient.state === undefined) return undefined;
      const { firstName, lastName, dateOfBirth, state } = patient;
      const created = await serviceCall(deps, (o) =>
        client.createDiscovery({ firstName, lastName, dateOfBirth, state, payerId }, o),
      );
      return created?.discoveryId;
    },
  };
}
