import type { FastifyInstance } from 'fastify';
import { patientViewFields } from '../../../src/patients/disclosed-fields.js';
import { patientWorkflowId } from '../../../workflows/shared/ids.js';
import { patientQuery } from '../../../workflows/patient/patient.js';
import { audited } from '../audit.js';
import { sendPage, withDeadline, type ConsoleDeps } from '../deps.js';
import { operatorOf } from '../session.js';
import { html } from '../views/html.js';
import { patientFor, patientRecord } from '../views/patient-record.js';

/** The patient a verification of its own checks belongs to (`verification-pt_<hex>-<n>`, workflows/shared/ids.ts). */
export function patientLink(workflowId: string) {
  const patientId = /^verification-(pt_[0-9a-f]{32})-\d+$/.exec(workflowId)?.[1];
  return patientId
    ? html`<p><a href="/patients/${patientId}">This patient’s appointments and coverage</a></p>`
    : html``;
}

/** A patient's page (issue 35): its details, appointments, coverage timeline and changes; every view audited. */
export function patientPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const read = { access: { role: 'viewer' }, owns: 'patient', audit: 'patient.read' } as const;
  app.get<{ Params: { patientId: string } }>('/patients/:patientId', { config: read }, async (request, reply) => {
    const { patientId } = request.params;
    const workflowId = patientWorkflowId(patientId);
    const view = await withDeadline(deps, () => deps.client.workflow.getHandle(workflowId).query(patientQuery));
    await audited(deps.audit, request, { fields: patientViewFields(view) });
    return sendPage(request, reply, { title: `Patient ${patientId}`, section: '/changes' }, () =>
      patientRecord(patientFor(operatorOf(request), view)),
    );
  });
}
