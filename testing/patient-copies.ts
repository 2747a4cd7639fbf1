import type { Appointment, PatientCopy } from '../workflows/patient/patient.js';

/** One appointment of a made-up copy: its date, time and latest check (`checked`: the verification that answered). */
export interface CopyAppointment {
  appointmentId: string;
  dateOfService: string;
  startTime?: string;
  providerGroupId?: string;
  payerId?: string;
  status?: Appointment['status'];
  checked?: string;
}

/** A made-up patient's copy, as the patient workflow writes it (src/visits): everything else defaulted. */
export function patientCopy(
  over: Partial<PatientCopy> & { patientId: string; tenant: string },
  appointments: CopyAppointment[] = [],
): PatientCopy {
  return {
    revision: 1,
    patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1985', memberId: 'M-123456' },
    timeline: [],
    changes: [],
    checksStarted: 0,
    ...over,
    appointments:
      over.appointments ??
      appointments.map((a) => ({
        appointmentId: a.appointmentId,
        dateOfService: a.dateOfService,
        timeZone: 'UTC',
        dayStartsAt: Date.parse(`${a.dateOfService}T00:00:00Z`),
        specialtyCode: 'PRC',
        placeOfServiceCode: '11',
        ...(a.startTime ? { startTime: a.startTime } : {}),
        ...(a.providerGroupId ? { providerGroupId: a.providerGroupId } : {}),
        ...(a.payerId ? { payerId: a.payerId } : {}),
        status: a.status ?? 'scheduled',
        checks: a.checked
          ? [{ at: 1, reuseWithinSeconds: 0, state: 'verified' as const, verificationWorkflowId: a.checked }]
          : [{ at: 1, reuseWithinSeconds: 0, state: 'waiting' as const }],
      })),
  };
}

/** `pt_` and 32 hex digits from a number: a patient id of the form the product makes. */
export const patientIdOf = (n: number) => `pt_${n.toString(16).padStart(32, '0')}`;
/** `apt_<patient hex>_<16 hex>`. */
export const appointmentIdOf = (patientId: string, n: number) =>
  `apt_${patientId.slice(3)}_${n.toString(16).padStart(16, '0')}`;
