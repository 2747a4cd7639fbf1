import { verificationWorkflowId } from '../../../workflows/shared/ids.js';
import { answerJson, type IntakeAnswer } from '../intake-http.js';
import { FUZZ_KINDS, isValidKind, type FuzzCase, type FuzzKind } from './cases.js';

/** How the intake API treated one kind of request. */
export interface KindTally {
  kind: FuzzKind;
  sent: number;
  /** 202 (started) and 200 (duplicate submission) answers. */
  started: number;
  duplicateAnswers: number;
  /** 400 with a `param`. */
  refusedNamingField: number;
  /** ... whose `param` is the field the generator broke (or a field inside it). */
  namedAsGenerated: number;
  otherStatus: number;
  /** 5xx answers and requests that got no answer. */
  fiveXx: number;
  /** Workflow executions under the request's caller id (for a duplicate: beyond the original's one). */
  workflows: number;
  echoed: number;
  /** Invalid: not refused with 400 naming a field, or a workflow started. Valid: no workflow. */
  failed: number;
}

export interface FuzzVerdict {
  kinds: KindTally[];
  workflowsTotal: number;
  distinctWorkflowIds: number;
  extraExecutions: number;
  /** Workflows on the queue that no request's caller id explains (a mangled id, a request without one). */
  unattributed: number;
  validWithoutWorkflow: number;
  validWithSeveral: number;
  invalidAccepted: number;
  echoed: number;
  fiveXx: number;
}

const isFiveXx = (a: IntakeAnswer) => a.status === 0 || a.status >= 500;

export function judge(
  cases: readonly FuzzCase[],
  answers: readonly IntakeAnswer[],
  executions: ReadonlyMap<string, number>,
): FuzzVerdict {
  const tallies = new Map<FuzzKind, KindTally>(
    FUZZ_KINDS.map((kind) => [
      kind,
      {
        kind,
        sent: 0,
        started: 0,
        duplicateAnswers: 0,
        refusedNamingField: 0,
        namedAsGenerated: 0,
        otherStatus: 0,
        fiveXx: 0,
        workflows: 0,
        echoed: 0,
        failed: 0,
      },
    ]),
  );
  const attributed = new Set<string>();
  const verdict = { validWithoutWorkflow: 0, validWithSeveral: 0, invalidAccepted: 0, echoed: 0, fiveXx: 0 };
  for (const c of cases) {
    const answer = answers[c.index]!;
    const t = tallies.get(c.kind)!;
    const body = answerJson(answer);
    const param = typeof body?.param === 'string' && body.param !== '' ? body.param : undefined;
    const workflowId = c.callerId === undefined ? undefined : verificationWorkflowId(c.callerId);
    if (workflowId) attributed.add(workflowId);
    if (typeof body?.workflowId === 'string') attributed.add(body.workflowId);
    const runs = workflowId ? (executions.get(workflowId) ?? 0) : 0;
    t.sent += 1;
    if (answer.status === 202) t.started += 1;
    else if (answer.status === 200) t.duplicateAnswers += 1;
    else if (answer.status === 400 && param) t.refusedNamingField += 1;
    else if (isFiveXx(answer)) t.fiveXx += 1;
    else t.otherStatus += 1;
    if (param && c.field && (param === c.field || param.startsWith(`${c.field}.`))) t.namedAsGenerated += 1;
    if (c.markers.some((m) => answer.text.includes(m))) t.echoed += 1;
    if (isFiveXx(answer)) verdict.fiveXx += 1;

    if (isValidKind(c.kind)) {
      t.workflows += runs;
      if (runs === 0) verdict.validWithoutWorkflow += 1;
      if (runs > 1) verdict.validWithSeveral += 1;
      if (runs !== 1) t.failed += 1;
    } else if (c.kind === 'duplicate caller id') {
      // The original started one; anything beyond it, or a "started" answer, is a second verification.
      t.workflows += Math.max(0, runs - 1);
      if (answer.status === 202 || runs > 1) t.failed += 1;
    } else {
      const started = runs > 0 || (answer.status >= 200 && answer.status < 300);
      t.workflows += runs;
      if (!(answer.status === 400 && param) || started) t.failed += 1;
    }
  }
  const kinds = [...tallies.values()];
  const invalidKinds = kinds.filter((k) => !isValidKind(k.kind));
  const unattributed = [...executions.keys()].filter((id) => !attributed.has(id)).length;
  let extraExecutions = 0;
  let workflowsTotal = 0;
  for (const n of executions.values()) {
    workflowsTotal += n;
    extraExecutions += n - 1;
  }
  return {
    kinds,
    workflowsTotal,
    distinctWorkflowIds: executions.size,
    extraExecutions,
    unattributed,
    validWithoutWorkflow: verdict.validWithoutWorkflow,
    validWithSeveral: verdict.validWithSeveral,
    invalidAccepted: invalidKinds.reduce((sum, k) => sum + k.failed, 0) + unattributed,
    echoed: kinds.reduce((sum, k) => sum + k.echoed, 0),
    fiveXx: verdict.fiveXx,
  };
}
