import type { FastifyInstance } from 'fastify';
import { EVERY_TENANT } from '../../../src/access/tenancy.js';
import { awaitingInput } from '../../../src/visits/index.js';
import { checksInProgress } from '../views/patient-visits.js';
import { patientViewFields } from '../../../src/patients/disclosed-fields.js';
import { patientWorkflowId } from '../../../workflows/shared/ids.js';
import { patientQuery } from '../../../workflows/patient/patient.js';
import { audited } from '../audit.js';
import { payerNames, sendPage, withDeadline, type ConsoleDeps } from '../deps.js';
import { operatorOf } from '../session.js';
import { html } from '../views/html.js';
import { patientOfCheck } from '../patient-rows.js';
import { patientFor, patientName, patientRecord } from '../views/patient-record.js';

/** The patient a verification of its own checks belongs to (`verification-pt_<hex>-<n>`, workflows/shared/ids.ts). */
export function patientLink(workflowId: string) {
  const patientId = patientOfCheck(workflowId);
  return patientId
    ? html`<p><a href="/patients/${patientId}">This patient’s appointments and coverage</a></p>`
    : html``;
}

/**
 * A patient's page: headed by the patient (the browser's title says only "Patient": titles stay in its history), its
 * details, visits upcoming and past, coverage timeline with checks in progress, and changes; every view audited.
 */
export function patientPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const read = { access: { role: 'viewer' }, owns: 'patient', audit: 'patient.read' } as const;
  app.get<{ Params: { patientId: string } }>('/patients/:patientId', { config: read }, async (request, reply) => {
    const { patientId } = request.params;
    const workflowId = patientWorkflowId(patientId);
    const view = await withDeadline(deps, () => deps.client.workflow.getHandle(workflowId).query(patientQuery));
    await audited(deps.audit, request, { fields: patientViewFields(view) });
    const shown = patientFor(operatorOf(request), view);
    const names = await payerNames(deps, [
      ...view.appointments.map((a) => a.payerId),
      ...view.timeline.map((e) => e.payerId),
    ]);
    const heading = patientName(shown) ?? 'A patient without details yet';
    // Its checks under way that wait for a person: the patient passed the wall, so among its own ids, every tenant.
    const underWay = checksInProgress(view).map((c) => c.workflowId);
    const awaiting = new Set(
      await withDeadline(deps, () => awaitingInput(deps.client, EVERY_TENANT, undefined, underWay)),
    );
    return sendPage(request, reply, { title: 'Patient', heading, section: '/patients' }, () =>
      patientRecord(shown, names, Date.now(), awaiting),
    );
  });
}
