import type { Client } from '@temporalio/client';
import { openBeforeVersioning } from '../src/temporal/deployments.js';

/** The worker refuses to start: workflows it cannot replay would move onto its version. */
export class OpenBeforeVersioningError extends Error {
  override name = 'OpenBeforeVersioningError';
  constructor(
    readonly taskQueue: string,
    readonly open: number,
  ) {
    super(
      `${open} workflow(s) on task queue ${taskQueue} were started before worker versioning and are still open. ` +
        'They replay only on the first versioned build (commit 096f839), which must run as the current version until ' +
        'they have finished: docs/operating/deploying-changes.md, "From an unversioned install".',
    );
  }
}

/**
 * Workflows started by unversioned workers move to whichever version is current when they next wake, and only the
 * first versioned build still carries the patches their histories were recorded with. A later version's worker does
 * not start while any is open, so none can move onto it and fail its replay.
 */
export async function refuseIfOpenBeforeVersioning(client: Client, taskQueue: string): Promise<void> {
  const open = await openBeforeVersioning(client, taskQueue);
  if (open > 0) throw new OpenBeforeVersioningError(taskQueue, open);
}
