import type { FastifyInstance } from 'fastify';
import { and, is, withWorkflowIdIn } from '../../../src/temporal/visibility-query.js';
import { VerificationStage } from '../../../workflows/shared/search-attributes.js';
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
    const awaiting = await waitingForInput(
      deps,
      checksInProgress(view).map((c) => c.workflowId),
    );
    return sendPage(request, reply, { title: 'Patient', heading, section: '/patients' }, () =>
      patientRecord(shown, names, Date.now(), awaiting),
    );
  });
}

/** Which of the patient's checks under way wait for a person: one visibility list of a few ids. */
async function waitingForInput(deps: ConsoleDeps, workflowIds: readonly string[]): Promise<Set<string>> {
  if (workflowIds.length === 0) return new Set();
  const { executions } = await withDeadline(deps, () =>
    deps.client.workflowService.listWorkflowExecutions({
      namespace: deps.client.options.namespace,
      query: and(withWorkflowIdIn(workflowIds), is(VerificationStage, 'awaiting-input')),
    }),
  );
  return new Set(executions.flatMap((e) => (e.execution?.workflowId ? [e.execution.workflowId] : [])));
}
