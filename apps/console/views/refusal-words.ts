import type { LastError } from '../../../workflows/verification/verification.js';
import { html, type Html } from './html.js';

/** What each kind of failure means for the person reading it. */
const KIND_WORDS: Record<string, string> = {
  InvalidRequest: 'The service did not accept a value as valid',
  NotFound: 'The service does not know something this verification names',
  RateLimited: 'The service asked us to slow down',
  Unauthorized: 'The service refused our credentials',
  ServerError: 'The service had an error of its own',
  NetworkError: 'The service could not be reached',
  UnexpectedResponse: 'The service answered in a form we do not understand',
  AmbiguousOutcome: 'The service did not say whether it created the verification',
  NotAwaitingReview: 'The verification no longer waits for a review',
};

/** A status and code of the service's error body (`400 invalid_request_error`), which carries no text of its own. */
const SERVICE_CODE = /\b(\d{3}) ([a-z_]+)\b/;

/**
 * The refusal of run input in words, for beside the field it names: the service's error bodies hold only a status and
 * a code, which mean nothing to an operator. A refusal of the console's own checks is already in words.
 */
export function refusalWords(param: string | undefined, reason: string): string {
  const code = SERVICE_CODE.exec(reason);
  if (!code) return reason;
  const [, status] = code;
  if (param === 'flowRunId') return 'The service says this run is no longer open: it may have been answered already.';
  if (status === '404') return 'The service no longer knows this run.';
  if (status === '400' && param?.startsWith('input.')) return 'The service did not accept this value.';
  if (status === '400') {
    return 'The service did not accept this input: it found nothing it could use. Fill in what the run asks for and send it again.';
  }
  if (status === '429' || status?.startsWith('5'))
    return 'The service could not take it just now. Try again in a minute.';
  return 'The service refused this input.';
}

/** A verification's last error in words, with the field it names. */
export function lastErrorWords(last: LastError): Html {
  const kind = KIND_WORDS[last.type];
  const field = last.param ? html` (field <code>${last.param}</code>)` : '';
  if (!kind) return html`${last.message}${field}`;
  const said = SERVICE_CODE.test(last.message) ? '' : html`: ${last.message}`;
  return html`${kind}${field}${said}.`;
}
