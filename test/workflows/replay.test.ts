import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../setup/bundle.js';
import { HISTORIES_DIR } from '../setup/histories.js';
import { workerSinks } from '../../workers/create-worker.js';

// Histories recorded from real runs of every path (`npm run test:record-histories`). Replaying them against the
// current workflow code fails on any change that would break a running workflow: keep them, add new ones.
describe('replay of recorded histories', function () {
  this.timeout(60_000);

  it('replays every history under test/histories without a determinism error', async () => {
    const files = (await fs.readdir(HISTORIES_DIR)).filter((f) => f.endsWith('.json')).sort();
    assert.ok(files.length >= 10, `expected the recorded paths, found ${files.length} histories`);
    const histories = await Promise.all(
      files.map(async (file) => ({
        workflowId: file.replace(/\.json$/, ''),
        history: JSON.parse(await fs.readFile(new URL(file, HISTORIES_DIR), 'utf8')) as object,
      })),
    );
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: await workflowBundle(), sinks: workerSinks() },
      histories,
    )) {
      if (result.error) failures.push(`${result.workflowId}: ${String(result.error)}`);
    }
    assert.deepEqual(failures, []);
  });
});
