import { patientFields } from '../audit/patient-fields.js';
import type { PatientView } from '../../workflows/patient/patient.js';

/**
 * What showing a patient discloses, by name (the audit trail's `fields`): its details, the member ids its discoveries
 * found, and its dates of service (dates tied to a person are patient data too). Never a value.
 */
export function patientViewFields(view: PatientView): string[] {
  return [
    ...patientFields({ patient: view.patient }),
    ...(view.timeline.some((e) => e.memberId !== undefined) ? ['timeline.memberId'] : []),
    ...(view.appointments.length > 0 ? ['appointments.dateOfService'] : []),
  ];
}
