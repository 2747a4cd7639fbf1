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
import type { VerificationStatus } from '../shared/types.js';

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

  /**
   * The event `status` (a stage not entered yet) will announce, made now for the activity that brings the stage about
   * to keep (decision 62). None when an earlier event is still on its way to the outbox: it must not be overtaken.
   */
  ahead(status: VerificationStatus): OutboundEvent | undefined {
    return this.events.idle ? this.make(status) : undefined;
  }

  /**
   * `status`'s stage, whose event was made `ahead`, is reached: its activity kept the event, or it is kept now, under
   * the id made ahead (an attempt may have kept it after all) and with what the stage holds now.
   */
  reached(ahead: OutboundEvent, kept: boolean, status: VerificationStatus): void {
    this.announced = status.stage;
    if (kept) return;
    const event = this.make(status, ahead.id);
    if (event) this.events.keep(event);
  }

  /** The stage's event (undefined for a stage no event tells), under `id` when one was made ahead. */
  private make(status: VerificationStatus, id?: string): OutboundEvent | undefined {
    const type = stageEvent(status.stage);
    if (!type) return undefined;
    const { workflowId, typedSearchAttributes } = workflowInfo();
    return this.events.make(
      type,
      verificationEventData(workflowId, status, typedSearchAttributes.get(BatchId)),
      `/verifications/${encodeURIComponent(workflowId)}`,
      id,
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
