import { upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { metricsSink } from '../shared/metrics-sinks.js';
import { VerificationStage } from '../shared/search-attributes.js';
import type { Stage } from '../shared/stages.js';

/**
 * The current stage, mirrored to the `VerificationStage` search attribute. Each upsert is a billed action, so it is
 * made only when the indexed value actually changes; the starter sets the first value at start, which is free.
 */
export class StageTracker {
  private indexed: string | undefined;

  /** `onEnter` runs after every move, e.g. to show the new stage in the current details. */
  constructor(
    public stage: Stage,
    private readonly onEnter: () => void = () => undefined,
  ) {
    this.indexed = workflowInfo().typedSearchAttributes.get(VerificationStage);
    metricsSink.stageEntered(stage);
  }

  /** Moves to `stage`; `also` rides on the same upsert (one action however many keys). */
  enter(stage: Stage, also: SearchAttributeUpdatePair[] = []): void {
    const previous = this.stage;
    this.stage = stage;
    if (stage !== this.indexed || also.length > 0) {
      upsertSearchAttributes([{ key: VerificationStage, value: stage }, ...also]);
      this.indexed = stage;
    }
    // Not a command: nothing in history changes, so histories recorded before it replay unchanged.
    if (stage !== previous) metricsSink.stageEntered(stage);
    this.onEnter();
  }
}
