import type { EligibilityClient } from '../src/client/index.js';
import type { PatientActivities, PatientCopyActivities } from '../workflows/patient/index.js';
import type { PatientCopy } from '../workflows/patient/patient.js';
import { serviceCall, type ActivityDeps } from './index.js';

/** Where patients' copies for the front desk's day are kept (src/visits `Visits`); none without a database. */
export interface PatientCopies {
  keep(copy: PatientCopy): Promise<void>;
}

/**
 * The patients' activities: a discovery of a patient's coverage for a refresh (decision 0051), and the local activity
 * that keeps the patient's copy for the front desk's day (a no-op without a database, where no console reads it).
 */
export function createPatientActivities(
  client: EligibilityClient,
  deps: ActivityDeps & { copies?: PatientCopies } = {},
): PatientActivities & PatientCopyActivities {
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
    keepPatientCopy: async (copy) => {
      await deps.copies?.keep(copy);
    },
  };
}
