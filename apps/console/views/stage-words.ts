import { STAGE_TABLE } from '../../../workflows/shared/stages.js';
import { html, type Html } from './html.js';

/** A stage or an outcome in people's words, as a badge (the stage table's title; Temporal's own endings spelled out). */
export function stageBadge(stage: string | undefined): Html | undefined {
  if (!stage) return undefined;
  const title =
    (STAGE_TABLE as Record<string, { title: string } | undefined>)[stage]?.title ??
    (stage === 'terminated' ? 'Stopped from outside' : stage);
  return html`<span class="stage stage-${stage}">${title}</span>`;
}

/** Temporal's execution status in people's words. */
export function executionWords(status: string): string {
  const words: Record<string, string> = {
    RUNNING: 'still running',
    COMPLETED: 'finished',
    FAILED: 'ended with an error',
    CANCELLED: 'cancelled',
    TERMINATED: 'stopped from outside',
    TIMED_OUT: 'ran out of time',
    CONTINUED_AS_NEW: 'continued in a new run',
  };
  return words[status] ?? status.toLowerCase();
}
