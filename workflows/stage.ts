import { upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { VerificationStage } from './search-attributes.js';
import type { Stage } from './types.js';

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
  }

  /** Moves to `stage`; `also` rides on the same upsert (one action however many keys). */
  enter(stage: Stage, also: SearchAttributeUpdatePair[] = []): void {
    this.stage = stage;
    if (stage !== this.indexed || also.length > 0) {
      upsertSearchAttributes([{ key: VerificationStage, value: stage }, ...also]);
      this.indexed = stage;
    }
    this.onEnter();
  }
}
