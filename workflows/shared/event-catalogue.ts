import type { BatchCounts } from './batch-counts.js';
import type { Stage } from './stages.js';

/** What changed in a patient's coverage (`coverage.changed`, the Changes list). */
export const COVERAGE_CHANGE_KINDS = [
  'coverage-lost',
  'coverage-found',
  'payer-changed',
  'member-id-changed',
  'verification-failing',
] as const;
export type CoverageChangeKind = (typeof COVERAGE_CHANGE_KINDS)[number];

/** A difference between one outcome and the one before it: kinds and identifiers, never a patient value. */
export interface CoverageChange {
  changeId: string;
  at: number;
  kinds: CoverageChangeKind[];
  workflowId: string;
  previousWorkflowId: string;
  verificationId?: string;
  payerId?: string;
  previousPayerId?: string;
  /** Epoch ms someone marked it seen: until then it is on the Changes list. */
  seenAt?: number;
}

/*
 * The catalogue of outbound events (docs/integrating/events.md), in one table: the workflows that emit them, the
 * outbox, the intake API's OpenAPI `webhooks`, the CLI and the docs all derive from it. Events are thin:
 * identifiers, stages and counts, and a link to fetch the details with the receiver's own credentials; never a patient
 * value.
 */
export const EVENT_CATALOGUE = {
  'verification.created': {
    about: 'verification',
    description: 'The service has created the verification of benefits',
  },
  'verification.awaiting_input': {
    about: 'verification',
    description:
      'A run of the verification asks for input: `flowRunIds` names the runs (answer with `POST /verifications/{workflowId}/runs/{flowRunId}/input`)',
  },
  'verification.needs_review': {
    about: 'verification',
    description: 'A v1 creation whose outcome is unknown waits for a person to decide (retry, record or abandon)',
  },
  'verification.completed': { about: 'verification', description: 'The verification completed' },
  'verification.no_coverage': { about: 'verification', description: 'The discovery found no coverage' },
  'verification.failed': {
    about: 'verification',
    description:
      'The verification ended without a result: `reason` is failed, timed-out, abandoned or cancelled; `error` names the type and field',
  },
  'batch.settled': {
    about: 'batch',
    description:
      'Nothing of the batch is on its way any more; items may still wait for a person or a grace period. Once per resubmission round',
  },
  'batch.finished': {
    about: 'batch',
    description:
      'Every item of the batch has closed, or the batch was cancelled (`phase`). Once per resubmission round',
  },
  'coverage.changed': {
    about: 'patient',
    description:
      "A patient's coverage differs from its previous verification: `kinds` says how (lost, found, payer, member id, failing)",
  },
} as const satisfies Record<string, { about: 'verification' | 'batch' | 'patient'; description: string }>;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as unknown as readonly [EventType, ...EventType[]];
export const isEventType = (value: unknown): value is EventType => (EVENT_TYPES as readonly unknown[]).includes(value);

/** The endings that are a `verification.failed`, as its `reason`. */
export const FAILED_REASONS = ['failed', 'timed-out', 'abandoned', 'cancelled'] as const;
export type FailedReason = (typeof FAILED_REASONS)[number];

/** The event a verification entering `stage` emits, if any (the stages on their way emit none). */
export function stageEvent(stage: Stage): EventType | undefined {
  switch (stage) {
    case 'created':
      return 'verification.created';
    case 'awaiting-input':
      return 'verification.awaiting_input';
    case 'needs-review':
      return 'verification.needs_review';
    case 'completed':
      return 'verification.completed';
    case 'no-coverage':
      return 'verification.no_coverage';
    case 'failed':
    case 'timed-out':
    case 'abandoned':
    case 'cancelled':
      return 'verification.failed';
    default:
      return undefined;
  }
}

/** What a verification event says: identifiers and the stage, the error's type and field; no message, no value. */
export interface VerificationEventData {
  workflowId: string;
  stage: Stage;
  verificationId?: string;
  discoveryId?: string;
  payerId?: string;
  batchId?: string;
  /** `verification.failed` only. */
  reason?: FailedReason;
  /** `verification.failed` only, when an error ended it: its type and the field at fault. */
  error?: { type: string; param?: string };
  /** `verification.awaiting_input` only: the runs waiting for input. */
  flowRunIds?: string[];
}

export interface BatchEventData {
  batchId: string;
  phase: 'settled' | 'finished' | 'cancelled';
  /** The resubmission round the batch is at (0: none yet). */
  round: number;
  counts: BatchCounts;
}

/** `coverage.changed`: the patient's opaque id, the kinds of change and the verifications compared; no value. */
export type CoverageChangedEventData = { patientId: string } & Omit<CoverageChange, 'at' | 'seenAt'>;

export type EventData = VerificationEventData | BatchEventData | CoverageChangedEventData;

/** One outbound event: its `id` is the deliveries' `webhook-id`, the same on every attempt and redelivery. */
export interface OutboundEvent {
  /** `evt_<hex>`. */
  id: string;
  type: EventType;
  /** ISO 8601: when the stage changed. */
  timestamp: string;
  tenant: string;
  data: EventData;
  /** `self`: the intake API path that shows the details, fetched with the receiver's own key. */
  links: { self: string };
}

/** Deliveries of events with the same key go out one after another (per verification, per batch, per patient). */
export const orderKey = (event: OutboundEvent): string =>
  'patientId' in event.data
    ? `patient:${event.data.patientId}`
    : 'workflowId' in event.data
      ? event.data.workflowId
      : `batch:${event.data.batchId}`;
