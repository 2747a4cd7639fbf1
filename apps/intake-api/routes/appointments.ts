import type { FastifyReply, FastifyRequest } from 'fastify';
import { patientFields } from '../../../src/audit/patient-fields.js';
import {
  cancelAppointment,
  patientOfAppointment,
  rescheduleAppointment,
  scheduleAppointment,
  type Patients,
} from '../../../src/patients/patients.js';
import { patientWorkflowId } from '../../../workflows/shared/ids.js';
import { audit } from '../access.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { answer, bodyAnswers, commonAnswers } from '../openapi.js';
import { patientsOf, replyWithPatientError } from '../patient-access.js';
import {
  AppointmentIdParams,
  AppointmentResponse,
  BookedAppointmentResponse,
  NewAppointmentRequest,
  RescheduleRequest,
} from '../patient-schemas.js';
import { ErrorResponse } from '../schemas.js';
import { ownWorkflow, tenantToStart } from '../tenancy.js';

/**
 * `POST /appointments` books a visit on its patient (created on its first), `PUT /appointments/:id` moves it and its
 * checks, `DELETE` cancels it and its checks. The patient verifies ahead of each visit (workflows/patient).
 */
export function appointmentRoutes(app: IntakeApp, deps: IntakeDeps): void {
  app.post(
    '/appointments',
    {
      schema: {
        operationId: 'createAppointment',
        summary: 'Book an appointment: the patient verifies ahead of it',
        body: NewAppointmentRequest,
        response: {
          ...bodyAnswers,
          201: answer('Booked; `patientId` names the patient from now on', BookedAppointmentResponse),
          400: answer('Invalid request: `param` names the field', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { scope: 'verifications:write' },
    },
    async (request, reply) => {
      try {
        const patients = patientsOf(deps);
        const { tenant: named, ...body } = request.body;
        const owner = tenantToStart(request, named);
        if ('refused' in owner) {
          return reply.code(403).send({ error: 'forbidden', param: 'tenant', message: owner.refused });
        }
        const booked = await withDeadline(deps, () => scheduleAppointment(patients, { ...body, tenant: owner.tenant }));
        await audit(deps.access, request, {
          action: 'appointment.create',
          workflowId: patientWorkflowId(booked.patientId),
          fields: ['patientRef', 'dateOfService', ...patientFields({ patient: body.patient })],
          outcome: 'ok',
        });
        return reply.code(201).send(booked);
      } catch (err) {
        return replyWithPatientError(request, reply, err);
      }
    },
  );

  app.put(
    '/appointments/:appointmentId',
    {
      schema: {
        operationId: 'rescheduleAppointment',
        summary: 'Move an appointment: its waiting checks move with it',
        params: AppointmentIdParams,
        body: RescheduleRequest,
        response: {
          ...bodyAnswers,
          200: answer('Moved', AppointmentResponse),
          404: answer('No such appointment (or another tenant’s)', ErrorResponse),
          409: answer('The appointment is cancelled', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { scope: 'verifications:write' },
    },
    (request, reply) =>
      onOwnAppointment(
        deps,
        request,
        reply,
        request.params.appointmentId,
        'appointment.reschedule',
        (patients, appointmentId) => rescheduleAppointment(patients, appointmentId, request.body),
      ),
  );

  app.delete(
    '/appointments/:appointmentId',
    {
      schema: {
        operationId: 'cancelAppointment',
        summary: 'Cancel an appointment: its waiting checks are dropped',
        params: AppointmentIdParams,
        response: {
          400: answer('`param` names the invalid path or query parameter (an unknown one too)', ErrorResponse),
          200: answer('Cancelled (again, when it already was)', AppointmentResponse),
          404: answer('No such appointment (or another tenant’s)', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { scope: 'verifications:write' },
    },
    (request, reply) =>
      onOwnAppointment(deps, request, reply, request.params.appointmentId, 'appointment.cancel', cancelAppointment),
  );
}

/**
 * A change to an existing appointment: its patient must be the caller's tenant's (else the missing appointment's 404),
 * then the change, then its audit entry (the date of service is what it touches).
 */
async function onOwnAppointment(
  deps: IntakeDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  appointmentId: string,
  action: 'appointment.reschedule' | 'appointment.cancel',
  act: (patients: Patients, appointmentId: string) => Promise<unknown>,
) {
  try {
    const patients = patientsOf(deps);
    const workflowId = patientWorkflowId(patientOfAppointment(appointmentId));
    await ownWorkflow(deps, request, workflowId);
    const changed = await withDeadline(deps, () => act(patients, appointmentId));
    await audit(deps.access, request, { action, workflowId, fields: ['dateOfService'], outcome: 'ok' });
    return reply.send(changed);
  } catch (err) {
    return replyWithPatientError(request, reply, err);
  }
}
