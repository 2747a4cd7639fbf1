import { setCurrentDetails } from '@temporalio/workflow';

/** What a workflow is doing or waiting for now; `until` (epoch ms) is when the wait ends at the latest. */
export interface Step {
  doing: string;
  until?: number;
}

/** Where the parts of a workflow (waits, handlers) report what they do; a part used alone reports to `quietProgress`. */
export interface ProgressReport {
  /** The workflow moved on to `step` (undefined: nothing under way, e.g. closed). */
  at(step: Step | undefined): void;
  /** Something shown changed (a run, an error, the stage): show it again. */
  show(): void;
}

export const quietProgress: ProgressReport = { at: () => undefined, show: () => undefined };

/**
 * A workflow's current details (`setCurrentDetails`): what Temporal UI shows on the workflow's page, answered by the
 * built-in `__temporal_workflow_metadata` query. Local state, not a command: refreshing it records nothing in history
 * and costs no action. `render` turns the workflow's state and the current step into Markdown.
 */
export class Progress implements ProgressReport {
  private step: Step | undefined;
  private started = false;

  constructor(private readonly render: (step: Step | undefined) => string) {}

  at(step: Step | undefined): void {
    this.step = step;
    this.started = true;
    this.show();
  }

  show(): void {
    // Before the first step the workflow's parts are still being built, and a handler run then has nothing to show.
    if (this.started) setCurrentDetails(this.render(this.step));
  }
}
