import { allHandlersFinished, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { VerificationActivities } from './activities.js';
import type { RunUpdateResponse } from '../../src/contract/index.js';
import { deadlineCallOptions } from '../shared/activity-options.js';
import { describeFailure, invalidRequest, toCallerFailure } from './failures.js';
import { runAwaitingInputSignal, runInputSignal, supplyRunInputUpdate } from './verification.js';
import { isPlainObject } from '../shared/plain-object.js';
import { LANES } from '../shared/priority.js';
import { quietProgress, type ProgressReport } from './progress.js';
import { SeenEvents } from './seen-events.js';
import { activitySummary, timerSummary } from './summaries.js';
import { ms } from '../shared/timing.js';
import type { LastError, RequestedInput, RunSummary, SupplyRunInput } from './verification.js';

// A person is waiting on the other end of the update, so its call gives up after minutes, not an hour, and takes the
// first lane (docs/developing/traffic.md): it overtakes every verification and batch queued behind the rate limit. Only
// the priority key is overridden, so the workflow's tenant stays its fairness key. (Replay does not compare an
// activity's priority: histories recorded before the lane replay unchanged, and no patch is needed.)
const { updateRun } = proxyActivities<VerificationActivities>({
  ...deadlineCallOptions,
  scheduleToCloseTimeout: '2 minutes',
  priority: { priorityKey: LANES.person },
});

/** The fields and description of a run's request, structurally checked (the receiver parsed it; a start may not). */
function requestedInput(value: unknown): RequestedInput | undefined {
  if (!isPlainObject(value)) return undefined;
  const fields = Array.isArray(value.fields) ? value.fields.filter((f): f is string => typeof f === 'string') : [];
  const description = typeof value.description === 'string' ? value.description : undefined;
  if (fields.length === 0 && description === undefined) return undefined;
  return { ...(fields.length > 0 ? { fields } : {}), ...(description !== undefined ? { description } : {}) };
}

export type InputWaitResult = 'completed' | 'timed-out' | 'stopped';

/**
 * Runs awaiting callback input, shared by the verification workflow and the standalone run workflow: learns of runs
 * from `runAwaitingInput`, takes input from the `supplyRunInput` update (which answers the caller) or the
 * `runInput` signal (which cannot, so its errors land in `lastError`), and sends it with `PUT /v1/runs/{id}`.
 */
export class RunInputs {
  private readonly runs = new Map<string, RunSummary>();
  lastError: LastError | undefined;

  /**
   * `known` runs are added before the handlers exist: setting a handler delivers buffered updates at once, and an
   * update for the run a workflow was started for must find it.
   */
  constructor(
    private readonly onChange: () => void = () => undefined,
    known: readonly string[] = [],
    seen: SeenEvents = new SeenEvents(),
    private readonly progress: ProgressReport = quietProgress,
  ) {
    for (const flowRunId of known) this.runs.set(flowRunId, { flowRunId, state: 'pending' });
    // A run is added once whatever the deliveries; the event id is remembered all the same, so that whatever a later
    // version does with an event is done once.
    setHandler(runAwaitingInputSignal, ({ flowRunId, eventId, requested }) => {
      if (!seen.repeated(eventId)) this.add(flowRunId, requested);
    });
    setHandler(supplyRunInputUpdate, (request) => this.submit(request), {
      // Runs before anything is written to history: a rejected update leaves no trace and costs no service call.
      validator: (request: SupplyRunInput) => this.validate(request),
    });
    setHandler(runInputSignal, async (request) => {
      try {
        this.validate(request);
        await this.submit(request);
      } catch (err) {
        this.lastError = { ...describeFailure(err), flowRunId: request?.flowRunId };
        this.progress.show();
      }
    });
  }

  /** A run awaiting input; `requested` (what it asks for) is kept when it has the expected shape, else ignored. */
  add(flowRunId: string, requested?: RequestedInput): void {
    if (typeof flowRunId !== 'string' || flowRunId.length === 0) return;
    const asks = requestedInput(requested);
    const known = this.runs.get(flowRunId);
    if (known) {
      // A run known before its event arrived (the standalone run workflow's own) learns what it asks for; no more.
      if (asks && !known.requested) known.requested = asks;
      return;
    }
    this.runs.set(flowRunId, { flowRunId, state: 'pending', ...(asks ? { requested: asks } : {}) });
    this.onChange();
    this.progress.show();
  }

  get summaries(): RunSummary[] {
    return [...this.runs.values()].map((run) => ({ ...run }));
  }

  get pending(): string[] {
    return [...this.runs.values()].filter((run) => run.state !== 'answered').map((run) => run.flowRunId);
  }

  /** Waits up to `graceSeconds` for a run to appear, then until every run is answered or the deadline passes. */
  async waitForInput(graceSeconds: number, deadlineSeconds: number, stopped: () => boolean): Promise<InputWaitResult> {
    const grace = ms(graceSeconds);
    this.progress.at({
      doing: 'grace period before closing: waiting for a run to ask for input',
      until: Date.now() + grace,
    });
    const anyRun = await condition(() => stopped() || this.runs.size > 0, grace, {
      summary: timerSummary.grace(grace),
    });
    if (stopped()) return 'stopped';
    if (anyRun) {
      const deadline = ms(deadlineSeconds);
      this.progress.at({
        doing:
          'waiting for a person to answer the pending runs (the console’s Needs input, or the intake API’s `POST /verifications/{id}/runs/{run}/input`)',
        until: Date.now() + deadline,
      });
      const answered = await condition(() => stopped() || this.pending.length === 0, deadline, {
        summary: timerSummary.inputDeadline(deadline),
      });
      if (stopped()) return 'stopped';
      if (!answered) return 'timed-out';
    }
    // An update still sending input must answer its caller before the workflow closes.
    await condition(allHandlersFinished);
    return 'completed';
  }

  private validate(request: SupplyRunInput): void {
    if (!isPlainObject(request) || typeof request.flowRunId !== 'string') {
      throw invalidRequest('flowRunId', 'a flowRunId is required');
    }
    const run = this.runs.get(request.flowRunId);
    if (!run) throw invalidRequest('flowRunId', 'no run of this workflow awaits input under this flowRunId');
    if (run.state === 'answered') throw invalidRequest('flowRunId', 'this run has already been answered');
    if (run.state === 'submitting') throw invalidRequest('flowRunId', 'input for this run is being sent already');
    if (!isPlainObject(request.input)) throw invalidRequest('input', 'input must be a JSON object');
  }

  private async submit({ flowRunId, input }: SupplyRunInput): Promise<RunUpdateResponse> {
    const run = this.runs.get(flowRunId);
    if (!run) throw invalidRequest('flowRunId', 'no run of this workflow awaits input under this flowRunId');
    run.state = 'submitting';
    this.progress.show();
    try {
      const response = await updateRun.executeWithOptions({ summary: activitySummary.updateRun(flowRunId) }, [
        flowRunId,
        input,
      ]);
      run.state = 'answered';
      run.serviceStatus = response.status;
      this.lastError = undefined;
      this.onChange();
      this.progress.show();
      return response;
    } catch (err) {
      // The run stays pending: the person can correct the input and try again.
      run.state = 'pending';
      this.lastError = { ...describeFailure(err), flowRunId };
      this.progress.show();
      throw toCallerFailure(err);
    }
  }
}
