import { BatchId, PayerId, Tenant, VerificationStage } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { and, is, ofType, or, withStatus } from './visibility-query.js';

/**
 * The lists people open in Temporal UI, as visibility queries: docs/operating/temporal-ui.md lists them (a test keeps
 * it in step) and `eligibility ui <view> [arg]` prints the UI address with the query filled in. A view takes an
 * identifier at most (a payer, a batch, a tenant), never a patient value, and only in the form identifiers have, so it
 * cannot leave its quotes or put a name in a URL.
 */
export interface UiView {
  name: string;
  description: string;
  /** The identifier the view takes, if any; `required` views have no meaning without it. */
  arg?: { name: string; required: boolean };
  query(arg: string | undefined): string;
}

const verifications = ofType(WorkflowType.verification);

export const UI_VIEWS: readonly UiView[] = [
  {
    name: 'awaiting-input',
    description: "runs waiting for a person's input (also runs whose verification closed)",
    query: () => and(withStatus('Running'), or(is(VerificationStage, 'awaiting-input'), ofType(WorkflowType.runInput))),
  },
  {
    name: 'needs-review',
    description: "v1 creations of unknown outcome, waiting for a person's decision",
    query: () => and(verifications, withStatus('Running'), is(VerificationStage, 'needs-review')),
  },
  {
    name: 'failed',
    description: 'failed verifications of one payer (all of them without a payer id)',
    arg: { name: 'payerId', required: false },
    query: (payerId) =>
      payerId
        ? and(verifications, withStatus('Failed'), is(PayerId, payerId))
        : and(verifications, withStatus('Failed')),
  },
  {
    name: 'batch',
    description: "one batch's items",
    arg: { name: 'batchId', required: true },
    query: (batchId = '') => and(verifications, is(BatchId, batchId)),
  },
  {
    name: 'tenant',
    description: "one tenant's verifications",
    arg: { name: 'tenant', required: true },
    query: (tenant = '') => and(verifications, is(Tenant, tenant)),
  },
];

/** The form of the identifiers a view takes: what the intake and the service use for ids, without quotes or spaces. */
const VIEW_ARG = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,99}$/;

/** A view asked for with an argument it cannot take; the message names the view and the argument, never its value. */
export class UiViewError extends Error {
  override name = 'UiViewError';
}

export function findView(name: string): UiView {
  const view = UI_VIEWS.find((v) => v.name === name);
  if (!view) throw new UiViewError(`no view "${name}": choose one of ${UI_VIEWS.map((v) => v.name).join(', ')}`);
  return view;
}

/** The visibility query of `view` with `arg`, checked. */
export function viewQuery(view: UiView, arg: string | undefined): string {
  if (arg !== undefined && !view.arg) throw new UiViewError(`the view ${view.name} takes no argument`);
  if (arg === undefined && view.arg?.required) throw new UiViewError(`the view ${view.name} needs a ${view.arg.name}`);
  if (arg !== undefined && !VIEW_ARG.test(arg)) {
    throw new UiViewError(
      `${view.arg!.name} must be an identifier (letters, digits and . _ : @ -, at most 100 characters)`,
    );
  }
  return view.query(arg);
}

/** The Temporal UI address of the workflow list filtered by `query`. */
export function workflowListUrl(uiUrl: string, namespace: string, query: string): string {
  const base = uiUrl.replace(/\/+$/, '');
  return `${base}/namespaces/${encodeURIComponent(namespace)}/workflows?query=${encodeURIComponent(query)}`;
}
