import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import proto, { type temporal } from '@temporalio/proto';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow/index.js';
import { supplyRunInputUpdate } from '../../../workflows/verification/verification.js';
import { VerificationStage } from '../../../workflows/shared/search-attributes.js';
import { STAGE_TABLE } from '../../../workflows/shared/stages.js';
import { indexedStage } from '../../../src/temporal/workflow-ending.js';

// CommonJS module: its namespaces are read from the default export under ESM.
const EventType = proto.temporal.api.enums.v1.EventType;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * One line of a verification's timeline. Read from its history: stage changes (the `VerificationStage` search
 * attribute at start and at each upsert), the messages people and the receiver sent (with the sender's identity: an
 * operator's answer reads `console:<name>`), and how it closed. Search attributes hold no PHI; of a message's
 * arguments only a run-input update's `flowRunId` is read, never the input.
 */
export interface TimelineEntry {
  /** ISO 8601. */
  at: string;
  kind: 'stage' | 'message' | 'closed';
  text: string;
  /** Who sent a message (the Temporal client's identity). */
  identity?: string;
  /** The run a `supplyRunInput` update answered (its argument's `flowRunId`; the input itself is not read). */
  flowRunId?: string;
}

/** Reads the `flowRunId` of an update's argument (decrypted with the client's converter); undefined when absent. */
export type RunIdOf = (payloads: temporal.api.common.v1.IPayload[]) => Promise<string | undefined>;

const CLOSED: Partial<Record<number, string>> = {
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED]: 'finished',
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED]: 'ended with an error',
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT]: 'ran out of time',
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED]: 'cancelled',
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED]: 'stopped from outside',
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW]: 'continued in a new run',
};

/** What each message sent to a verification means, in an operator's words (Temporal's names stay out of the page). */
const SIGNAL_WORDS: Record<string, string> = {
  runAwaitingInput: 'the service asked for input on a run',
  runInput: 'input sent for a run',
  discoveryUpdated: 'the discovery has news',
  discoveryHandout: 'the discovery handed over its answer',
  cancel: 'asked to cancel',
  reviewDecision: 'review decided',
};
const UPDATE_WORDS: Record<string, { sent: string; answered: string; refused: string }> = {
  supplyRunInput: { sent: 'input sent', answered: 'the service took the input', refused: 'the input was refused' },
  resolveReview: {
    sent: 'review decided',
    answered: 'the decision was carried out',
    refused: 'the decision was refused',
  },
  awaitSettled: {
    sent: 'the front desk waited for an answer',
    answered: 'the front desk was answered',
    refused: 'the front desk wait ended',
  },
};
/** Who sent a message, as a person reads it: another workflow's (Temporal's own `history-service`) names nobody. */
const byWhom = (identity: string | null | undefined) => (identity === 'history-service' ? '' : (identity ?? ''));

const updateWords = (name: string) =>
  UPDATE_WORDS[name] ?? { sent: `${name} sent`, answered: `${name} answered`, refused: `${name} refused` };

/** A stage's title (the stage table's), or the value itself. */
const stageTitle = (stage: string) =>
  (STAGE_TABLE as Record<string, { title: string } | undefined>)[stage]?.title ?? stage;

function stageIn(fields: Record<string, temporal.api.common.v1.IPayload> | null | undefined): string | undefined {
  const payload = fields?.[VerificationStage.name];
  if (!payload) return undefined;
  const value = defaultPayloadConverter.fromPayload<unknown>(payload);
  return Array.isArray(value) ? String(value[0]) : typeof value === 'string' ? value : undefined;
}

const timeOf = (event: HistoryEvent) => {
  const t = event.eventTime;
  const ms = Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);
  return new Date(ms).toISOString();
};

export async function timelineOf(events: readonly HistoryEvent[], runIdOf?: RunIdOf): Promise<TimelineEntry[]> {
  const entries: TimelineEntry[] = [];
  const updates = new Map<string, string>();
  /** The stage last recorded. */
  let stage: string | undefined;
  for (const event of events) {
    const at = timeOf(event);
    const started = event.workflowExecutionStartedEventAttributes;
    if (started) {
      stage = stageIn(started.searchAttributes?.indexedFields);
      entries.push({ at, kind: 'stage', text: stage ? `started: ${stageTitle(stage).toLowerCase()}` : 'started' });
      continue;
    }
    const upserted = stageIn(event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields);
    if (upserted) {
      stage = upserted;
      entries.push({ at, kind: 'stage', text: stageTitle(upserted) });
      continue;
    }
    const signal = event.workflowExecutionSignaledEventAttributes;
    if (signal) {
      entries.push({
        at,
        kind: 'message',
        text: SIGNAL_WORDS[signal.signalName ?? ''] ?? 'a message came',
        identity: byWhom(signal.identity),
      });
      continue;
    }
    const accepted = event.workflowExecutionUpdateAcceptedEventAttributes;
    if (accepted) {
      const request = accepted.acceptedRequest;
      const name = request?.input?.name ?? '?';
      if (request?.meta?.updateId) updates.set(request.meta.updateId, name);
      const args = request?.input?.args?.payloads;
      const flowRunId = name === supplyRunInputUpdate.name && args && runIdOf ? await runIdOf(args) : undefined;
      entries.push({
        at,
        kind: 'message',
        text: `${updateWords(name).sent}${flowRunId ? ` (run ${flowRunId})` : ''}`,
        identity: request?.meta?.identity ?? '',
        ...(flowRunId ? { flowRunId } : {}),
      });
      continue;
    }
    const completed = event.workflowExecutionUpdateCompletedEventAttributes;
    if (completed) {
      const name = updates.get(completed.meta?.updateId ?? '') ?? 'update';
      const words = updateWords(name);
      entries.push({ at, kind: 'message', text: completed.outcome?.failure ? words.refused : words.answered });
      continue;
    }
    const closed = CLOSED[event.eventType ?? 0];
    // A completion that records no stage of its own (decision 66) reads as one: the stage is shown as it reads.
    const read =
      event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED && indexedStage('COMPLETED', stage);
    if (read && read !== stage) entries.push({ at, kind: 'stage', text: stageTitle(read) });
    if (closed) entries.push({ at, kind: 'closed', text: closed });
  }
  return entries;
}

/** The timeline of the latest run of `workflowId` (reading history is not a billed action). */
export async function timeline(client: Client, workflowId: string): Promise<TimelineEntry[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const context = { type: 'workflow' as const, namespace: client.options.namespace, workflowId };
  const runIdOf: RunIdOf = async (payloads) => {
    const request = await decodeFromPayloadsAtIndex<unknown>(client.options.loadedDataConverter, 0, payloads, context);
    const flowRunId = (request as { flowRunId?: unknown } | null)?.flowRunId;
    return typeof flowRunId === 'string' ? flowRunId : undefined;
  };
  return timelineOf(history.events ?? [], runIdOf);
}
