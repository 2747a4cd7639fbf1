import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import { failureDetails } from '../../workflows/shared/failure-details.js';

/** Why an update was refused: the field at fault (once) and the reason, ready for a person or an API answer. */
export interface Rejection {
  param: string | undefined;
  reason: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The refusal of an update (its validator's or the service's 400), with the `param` named once. The workflow's own
 * messages start with `<param>: `, the client's end with ` (param <param>)`; both are the param said twice when a
 * caller prints it beside the param, so it is taken out of the reason. What remains of a service refusal is its status
 * and error code (the spec's error bodies carry no text), said as such.
 */
export function describeRejection(err: WorkflowUpdateFailedError): Rejection {
  const failure = err.cause instanceof ApplicationFailure ? err.cause : undefined;
  const param = failure ? failureDetails(failure).param : undefined;
  let reason = (failure?.message ?? err.message).trim();
  if (param !== undefined) {
    const p = escape(param);
    reason = reason.replace(new RegExp(`^${p}: `), '').replace(new RegExp(`\\s*\\(param ${p}\\)`), '');
  }
  if (/^\d{3} \S+$/.test(reason)) reason = `the service refused it (${reason})`;
  return { param, reason: reason || 'refused' };
}
