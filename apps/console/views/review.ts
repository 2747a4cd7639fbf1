import { html, type Html } from './html.js';
import { hiddenCsrf } from './layout.js';

const DUPLICATE_RISK =
  'The first call may have created a verification the service never confirmed; calling again may create a second one.';

/**
 * The three decisions on a v1 creation of unknown outcome (the `resolveReview` update): record the verification id
 * found at the service, retry (only with the duplicate risk acknowledged), or abandon.
 */
export function reviewForms(workflowId: string, csrf: string): Html {
  const action = `/verifications/${encodeURIComponent(workflowId)}/review`;
  const id = (name: string) => `${name}-${workflowId}`;
  return html`<div class="decisions">
    <form method="post" action="${action}" class="decision">
      ${hiddenCsrf(csrf)}<input type="hidden" name="action" value="record" />
      <label for="${id('vid')}">Verification id found at the service</label>
      <input
        id="${id('vid')}"
        name="verificationId"
        required
        pattern="[0-9a-fA-F-]{36}"
        size="38"
        aria-describedby="${id('vid-help')}"
      />
      <button type="submit">Record</button>
      <small id="${id('vid-help')}" class="help">A UUID. Recording it makes no call.</small>
    </form>
    <form method="post" action="${action}" class="decision">
      ${hiddenCsrf(csrf)}<input type="hidden" name="action" value="retry" />
      <input type="checkbox" id="${id('risk')}" name="acceptDuplicateRisk" value="yes" required />
      <label for="${id('risk')}" class="inline">${DUPLICATE_RISK} Retry anyway.</label>
      <button type="submit">Retry</button>
    </form>
    <form method="post" action="${action}" class="decision">
      ${hiddenCsrf(csrf)}<input type="hidden" name="action" value="abandon" />
      <button type="submit" class="danger">Abandon</button>
      <small class="help">Closes it as abandoned; a verification may exist at the service.</small>
    </form>
  </div>`;
}
