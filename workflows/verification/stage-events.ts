import { workflowInfo } from '@temporalio/workflow';
import {
  FAILED_REASONS,
  stageEvent,
  type FailedReason,
  type OutboundEvent,
  type VerificationEventData,
} from '../shared/event-catalogue.js';
import type { EventEmitter } from '../shared/event-emitter.js';
import { BatchId } from '../shared/search-attributes.js';
import type { Stage } from '../shared/stages.js';
import type { VerificationStatus } from './verification.js';

/**
 * A verification's events (docs/integrating/events.md): one per stage worth telling (created, awaiting input, needs
 * review, and each outcome), emitted once per stage entered, with identifiers and the error's type and field only:
 * never a patient value (the status's discovery summary and the run requests stay out).
 */
export class StageEvents {
  private announced: Stage | undefined;

  constructor(private readonly events: EventEmitter) {}

  entered(status: VerificationStatus): void {
    if (this.announced === status.stage) return;
    const event = this.make(status);
    if (!event) return;
    this.announced = status.stage;
    this.events.keep(event);
  }

  /** The stage's event (undefined for a stage no event tells). */
  private make(status: VerificationStatus): OutboundEvent | undefined {
    const type = stageEvent(status.stage);
    if (!type) return undefined;
    const { workflowId, typedSearchAttributes } = workflowInfo();
    return this.events.make(
      type,
      verificationEventData(workflowId, status, typedSearchAttributes.get(BatchId)),
      `/verifications/${encodeURIComponent(workflowId)}`,
    );
  }
}

/** The event's data from the status: only the fields named here, so nothing the status gains later leaks by itself. */
export function verificationEventData(
  workflowId: string,
  status: VerificationStatus,
  batchId?: string,
): VerificationEventData {
  const reason = (FAILED_REASONS as readonly string[]).includes(status.stage)
    ? (status.stage as FailedReason)
    : undefined;
  const error = reason && status.lastError;
  return {
    workflowId,
    stage: status.stage,
    ...(status.verificationId ? { verificationId: status.verificationId } : {}),
    ...(status.discoveryId ? { discoveryId: status.discoveryId } : {}),
    ...(status.payerId ? { payerId: status.payerId } : {}),
    ...(batchId ? { batchId } : {}),
    ...(reason ? { reason } : {}),
    ...(error ? { error: { type: error.type, ...(error.param ? { param: error.param } : {}) } } : {}),
    ...(status.stage === 'awaiting-input' ? { flowRunIds: status.pendingRuns } : {}),
  };
}
