import { patientFields } from '../../../src/audit/patient-fields.js';
import {
  cancelAppointment,
  refusePastVisit,
  rescheduleAppointment,
  scheduleAppointment,
} from '../../../src/patients/patients.js';
import { patientWorkflowId } from '../../../workflows/shared/ids.js';
import { audited } from '../audit.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { answer, bodyAnswers, commonAnswers, TAGS } from '../openapi.js';
import { startTenant } from '../owned.js';
import { appointmentAnswer } from '../patient-answers.js';
import { patientsOf } from '../patient-access.js';
import {
  AppointmentIdParams,
  AppointmentResponse,
  BookedAppointmentResponse,
  NewAppointmentRequest,
  RescheduleRequest,
} from '../patient-schemas.js';
import { ErrorResponse } from '../schemas.js';

/**
 * `POST /appointments` books a visit on its patient (created on its first), `PUT /appointments/:id` moves it and its
 * checks, `DELETE` cancels it and its checks. The patient verifies ahead of each visit (workflows/patient). A change
 * to an existing appointment needs its patient to be the caller's tenant's (else the missing appointment's 404); its
 * entry names the date of service, what it touches.
 */
export function appointmentRoutes(app: IntakeApp, deps: IntakeDeps): void {
  app.post(
    '/appointments',
    {
      schema: {
        operationId: 'createAppointment',
        tags: [TAGS.appointments.name],
        summary: 'Book an appointment: the patient’s coverage is verified ahead of the visit',
        body: NewAppointmentRequest,
        response: {
          ...bodyAnswers,
          201: answer('Booked; `patientId` names the patient from now on', BookedAppointmentResponse),
          400: answer(
            'Invalid request: `param` names the field (a `timeZone` must be one this server knows: an IANA name such as America/Chicago)',
            ErrorResponse,
          ),
          ...commonAnswers,
        },
      },
      config: { access: { scope: 'verifications:write' }, owns: 'own-tenant', audit: 'appointment.create' },
    },
    async (request, reply) => {
      const patients = patientsOf(deps, request);
      const { tenant: named, ...body } = request.body;
      const tenant = startTenant(request, named);
      refusePastVisit(patients, body.dateOfService, body.timeZone);
      const booked = await withDeadline(deps, () => scheduleAppointment(patients, { ...body, tenant }));
      await audited(deps.access, request, {
        workflowId: patientWorkflowId(booked.patientId),
        fields: ['patientRef', 'dateOfService', ...patientFields({ patient: body.patient })],
      });
      return reply.code(201).send({ patientId: booked.patientId, appointment: appointmentAnswer(booked.appointment) });
    },
  );

  app.put(
    '/appointments/:appointmentId',
    {
      schema: {
        operationId: 'rescheduleAppointment',
        tags: [TAGS.appointments.name],
        summary: 'Move an appointment: its waiting checks move with it',
        params: AppointmentIdParams,
        body: RescheduleRequest,
        response: {
          ...bodyAnswers,
          400: answer(
            'Invalid request: `param` names the field (a `timeZone` must be one this server knows: an IANA name such as America/Chicago)',
            ErrorResponse,
          ),
          200: answer('Moved', AppointmentResponse),
          404: answer('No such appointment (or another tenant’s)', ErrorResponse),
          409: answer('The appointment is cancelled', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access: { scope: 'verifications:write' }, owns: 'appointment', audit: 'appointment.reschedule' },
    },
    async (request, reply) => {
      const { appointmentId } = request.params;
      refusePastVisit(patientsOf(deps), request.body.dateOfService, request.body.timeZone);
      const moved = await withDeadline(deps, () =>
        rescheduleAppointment(patientsOf(deps, request), appointmentId, request.body),
      );
      await audited(deps.access, request, {
        fields: ['dateOfService', ...(request.body.startTime !== undefined ? ['startTime'] : [])],
      });
      return reply.send(appointmentAnswer(moved));
    },
  );

  app.delete(
    '/appointments/:appointmentId',
    {
      schema: {
        operationId: 'cancelAppointment',
        tags: [TAGS.appointments.name],
        summary: 'Cancel an appointment: its waiting checks are dropped',
        params: AppointmentIdParams,
        response: {
          400: answer('`param` names the invalid path or query parameter (an unknown one too)', ErrorResponse),
          200: answer('Cancelled (again, when it already was)', AppointmentResponse),
          404: answer('No such appointment (or another tenant’s)', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access: { scope: 'verifications:write' }, owns: 'appointment', audit: 'appointment.cancel' },
    },
    async (request, reply) => {
      const cancelled = await withDeadline(deps, () =>
        cancelAppointment(patientsOf(deps, request), request.params.appointmentId),
      );
      await audited(deps.access, request, { fields: ['dateOfService'] });
      return reply.send(appointmentAnswer(cancelled));
    },
  );
}
