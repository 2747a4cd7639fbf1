import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { closedMessage, closedWorkflow } from '../../../src/temporal/closed-workflow.js';
import { describeRejection } from '../../../src/temporal/rejection.js';
import { supplyRunInputUpdate } from '../../../workflows/verification/verification.js';
import { isPlainObject } from '../../../workflows/shared/plain-object.js';
import { operatorOf } from '../session.js';
import { mayAct } from '../../../src/access/operators.js';
import { audited, auditRead } from '../audit.js';
import { detailFor } from '../masking.js';
import { requireCsrf } from '../csrf.js';
import { payerNames, sendPage, withDeadline, workflowUiUrl, type ConsoleDeps } from '../deps.js';
import { pageParam, paged } from '../views/paging.js';
import { operatorIdentity } from '../operator-client.js';
import { queue } from '../reads/queue.js';
import { answerView, runsOf, type RunFormError } from '../views/answer.js';
import { FIELD_PREFIX } from '../views/run-form.js';
import { refusalWords } from '../views/refusal-words.js';
import { html } from '../views/html.js';
import { queueTable } from '../views/queue.js';
import { verificationDetail } from '../reads/verification.js';
import { notFoundPage } from './not-found.js';
import { checksOf } from '../patient-rows.js';
import { WorkflowType } from '../../../workflows/shared/workflow-types.js';

/** The update's activity gives up after 2 minutes (workflows/verification/run-inputs.ts): wait a little longer. */
const UPDATE_TIMEOUT_MS = 150_000;

type RunParams = { workflowId: string; flowRunId: string };

async function showAnswerPage(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  workflowId: string,
  error?: RunFormError,
) {
  // The wall found the workflow within the operator's tenants before the handler ran.
  const found = await withDeadline(deps, () => verificationDetail(deps.client, workflowId));
  if (!found) return notFoundPage(request, reply, `There is no workflow ${workflowId}.`);
  await auditRead(deps.audit, request, found);
  const operator = operatorOf(request);
  const detail = detailFor(operator, found);
  const runFlowId = detail.type === WorkflowType.runInput ? workflowId.replace(/^run-/, '') : undefined;
  const names = await payerNames(deps, [detail.payerId ?? detail.status?.payerId]);
  return sendPage(
    request,
    reply,
    { title: 'Answer a run', section: '/awaiting-input' },
    (csrf) =>
      answerView(
        detail,
        runsOf(detail, runFlowId),
        csrf,
        workflowUiUrl(deps, workflowId),
        error,
        mayAct(operator),
        names,
      ),
    error ? 400 : 200,
  );
}

/** The values typed in the run's fields (`field.<name>`), the empty ones left out. */
function fieldValues(body: Record<string, unknown> | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(body ?? {})) {
    if (key.startsWith(FIELD_PREFIX) && typeof value === 'string' && value.trim() !== '') {
      values[key.slice(FIELD_PREFIX.length)] = value.trim();
    }
  }
  return values;
}

/**
 * The input as the operator gave it: the JSON box when it is filled in (the advanced way), else the fields' values;
 * or the reason it cannot be sent, naming the field (said without echoing it).
 */
function parseInput(
  text: string,
  values: Record<string, string>,
): { input: Record<string, unknown> } | { param: string; reason: string } {
  if (text.trim() === '') {
    if (Object.keys(values).length > 0) return { input: values };
    return { param: 'input', reason: 'Fill in what the run asks for before sending.' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { param: 'input', reason: 'This is not valid JSON.' };
  }
  return isPlainObject(value) ? { input: value } : { param: 'input', reason: 'The input must be a JSON object ({…}).' };
}

/**
 * Awaiting input: the queue (the Temporal UI view `awaiting-input`, oldest first), one workflow's answer page with a
 * form per pending run, and the form's post, which sends the `supplyRunInput` update in the operator's name (the same
 * update `eligibility supply-input` and the intake API send) and shows the service's answer or its refusal inline.
 */
export function awaitingInputPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const queueConfig = {
    access: { role: 'viewer' },
    owns: 'own-tenant',
    audit: { none: 'identifiers, stages and payers; each patient of a check shown is its own patient.read entry' },
  } as const;
  app.get('/awaiting-input', { config: queueConfig }, async (request, reply) => {
    const operator = operatorOf(request);
    const rows = await withDeadline(deps, () => queue(deps.client, 'awaiting-input', operator.tenants));
    const label = mayAct(operator) ? 'Answer' : 'View';
    const shown = paged(rows, pageParam(request.query));
    const names = await payerNames(
      deps,
      shown.rows.map((r) => r.payerId),
    );
    const checks = await checksOf(
      deps,
      request,
      shown.rows.map((r) => r.workflowId),
    );
    return sendPage(request, reply, { title: 'Needs input', section: '/awaiting-input' }, () =>
      queueTable(
        shown,
        { caption: 'Runs waiting for input', empty: 'No run waits for input.', path: '/awaiting-input', names, checks },
        (r) => html`<a class="button" href="/runs/${encodeURIComponent(r.workflowId)}">${label}</a>`,
      ),
    );
  });

  const read = { access: { role: 'viewer' }, owns: 'workflow', audit: 'verification.read' } as const;
  app.get<{ Params: { workflowId: string } }>('/runs/:workflowId', { config: read }, async (request, reply) =>
    showAnswerPage(deps, request, reply, request.params.workflowId),
  );

  app.post<{ Params: RunParams; Body: Record<string, unknown> }>(
    '/runs/:workflowId/:flowRunId',
    {
      preHandler: requireCsrf(app),
      config: { access: { role: 'operator', to: 'answer runs' }, owns: 'workflow', audit: 'run.answer' },
    },
    async (request, reply) => {
      const { workflowId, flowRunId } = request.params;
      const text = typeof request.body?.input === 'string' ? request.body.input : '';
      const values = fieldValues(request.body);
      const parsed = parseInput(text, values);
      if ('reason' in parsed) {
        return showAnswerPage(deps, request, reply, workflowId, { flowRunId, ...parsed, text, values });
      }
      const operator = operatorOf(request).name;
      const client = deps.operators.for(operator);
      // The names of the keys sent, never their values: the input may hold patient data.
      const answered = (outcome: string) =>
        audited(deps.audit, request, { fields: Object.keys(parsed.input).map((key) => `input.${key}`), outcome });
      let answer;
      try {
        answer = await client.withDeadline(Date.now() + UPDATE_TIMEOUT_MS, () =>
          client.workflow
            .getHandle(workflowId)
            .executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId, input: parsed.input }] }),
        );
      } catch (err) {
        if (err instanceof WorkflowUpdateFailedError) {
          const { param, reason } = describeRejection(err);
          request.log.info({ workflowId, flowRunId, param, operator }, 'run input refused');
          await answered('refused');
          return showAnswerPage(deps, request, reply, workflowId, {
            flowRunId,
            reason: refusalWords(param, reason),
            text,
            values,
            ...(param ? { param } : {}),
          });
        }
        const closed = await withDeadline(deps, () => closedWorkflow(deps.client, workflowId)).catch(() => undefined);
        if (!closed) throw err;
        await answered('closed');
        const reason = `${closedMessage(closed)}: it takes no more input`;
        return showAnswerPage(deps, request, reply, workflowId, { flowRunId, reason, text, values });
      }
      // Identifiers only: the input itself is never logged.
      request.log.info({ workflowId, flowRunId, status: answer.status, operator }, 'run input accepted');
      await answered('ok');
      request.session.notice =
        `Run ${flowRunId} answered: the service took the input (the run is now ${answer.status.toLowerCase()}). ` +
        `The verification records it as sent by ${operatorIdentity(operator)}.`;
      return reply.redirect(`/runs/${encodeURIComponent(workflowId)}`, 303);
    },
  );
}
