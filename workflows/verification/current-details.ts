import type { Step } from './progress.js';
import type { LastError, RunSummary, VerificationStatus } from './verification.js';
import { stageTitle } from '../shared/stages.js';
import { bullets, code, codeList, instant } from '../shared/ui-text.js';

// The current details Temporal UI shows on a workflow's page, as Markdown: where the workflow stands, what it waits
// for and until when, what a person can send it. Built from the same state as the `status` query, minus anything that
// is not an identifier: an error shows its type and the field it names, never its message (which the `status` query
// and the decrypted event carry), so no value can reach a person's screen through here.

/** "InvalidRequest on field `input` (run `r-1`)": the type and the field, no message. */
export function errorLine(error: LastError): string {
  const field = error.param ? ` on field ${code(error.param)}` : '';
  const run = error.flowRunId ? ` (run ${code(error.flowRunId)})` : '';
  return `${error.type}${field}${run}`;
}

/**
 * "Now: <doing> — until <instant>". An instant, not a duration left: the details are set when the step begins and a
 * person reads them later, when "in 7 days" would be stale.
 */
function stepLine(step: Step | undefined): string | undefined {
  if (!step) return undefined;
  return `Now: ${step.doing}${step.until === undefined ? '' : ` — until ${instant(step.until)}`}`;
}

/** Paragraphs and a list, as Temporal UI's Markdown needs them: a blank line between blocks, a list its own block. */
function markdown(paragraphs: readonly (string | undefined)[], list: readonly string[]): string {
  const blocks = paragraphs.filter((p): p is string => p !== undefined);
  if (list.length > 0) blocks.push(list.join('\n'));
  return blocks.join('\n\n');
}

function runLine(runs: readonly RunSummary[]): string | undefined {
  const answered = runs.filter((r) => r.state === 'answered').map((r) => r.flowRunId);
  return answered.length > 0 ? codeList(answered) : undefined;
}

export function verificationDetails(status: VerificationStatus, step: Step | undefined): string {
  const id = status.verificationId ? ` · verification ${code(status.verificationId)}` : '';
  const review = status.review;
  return markdown(
    [`**${stageTitle(status.stage)}**${id}`, stepLine(step)],
    bullets([
      ['pending runs', status.pendingRuns.length > 0 ? codeList(status.pendingRuns) : undefined],
      ['answered runs', runLine(status.runs)],
      ['review reason', review?.reason],
      ['decide by', review ? `${review.decideBy} (update \`resolveReview\` or signal \`reviewDecision\`)` : undefined],
      ['last error', status.lastError ? errorLine(status.lastError) : undefined],
      ['payer', status.payerId ? code(status.payerId) : undefined],
      ['discovery', status.discoveryId ? code(status.discoveryId) : undefined],
    ]),
  );
}

export interface RunInputView {
  outcome?: string;
  pendingRuns: readonly string[];
  runs: readonly RunSummary[];
  lastError?: LastError;
}

export function runInputDetails(view: RunInputView, step: Step | undefined): string {
  return markdown(
    [view.outcome ? `**Run ${view.outcome}**` : '**Awaiting input**', stepLine(step)],
    bullets([
      ['pending runs', view.pendingRuns.length > 0 ? codeList(view.pendingRuns) : undefined],
      ['answered runs', runLine(view.runs)],
      ['last error', view.lastError ? errorLine(view.lastError) : undefined],
    ]),
  );
}

/** The discovery and webhook setup workflows: a heading and the step. */
export function simpleDetails(heading: string, step: Step | undefined): string {
  return markdown([`**${heading}**`, stepLine(step)], []);
}
