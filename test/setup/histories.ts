import fs from 'node:fs/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';

export const HISTORIES_DIR = new URL('../histories/', import.meta.url);

/**
 * With RECORD_HISTORIES=1 (`npm run test:record-histories`), saves a finished workflow's history under
 * test/histories/, where the replay test replays it on every run: a non-deterministic change then fails CI.
 */
export async function recordHistory(name: string, handle: WorkflowHandle): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await handle.fetchHistory();
  await fs.mkdir(HISTORIES_DIR, { recursive: true });
  await fs.writeFile(new URL(`${name}.json`, HISTORIES_DIR), `${historyToJSON(history)}\n`);
}
