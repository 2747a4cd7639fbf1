import type { Client } from '@temporalio/client';
import { refreshProgressQuery } from '../../workflows/refresh/refresh.js';
import type { RefreshProgress } from '../../workflows/refresh/refresh.js';

/**
 * A refresh's progress: its query while it runs, its result once done (a query of a closed workflow replays it; the
 * result is the same picture, cheaper).
 */
export async function readRefreshProgress(client: Client, refreshId: string): Promise<RefreshProgress> {
  const handle = client.workflow.getHandle(refreshId);
  const { status } = await handle.describe();
  if (status.name === 'COMPLETED') return (await handle.result()) as RefreshProgress;
  return handle.query(refreshProgressQuery);
}
