import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../../testing/bundle.js';
import { HISTORIES_DIR } from '../../testing/histories.js';
import { bundleAtCommit } from '../../testing/version-bundle.js';
import { workerSinks } from '../../workers/create-worker.js';

/** Earlier versions' histories: `versions/<commit>/`, each with a `source` file naming the commit that built it. */
const VERSIONS_DIR = new URL('versions/', HISTORIES_DIR);

/** A folder's histories: `<name>.json`, or `<name>.json.gz` for an earlier version's (they never change again). */
async function readHistories(dir: URL) {
  const files = (await fs.readdir(dir)).filter((f) => /\.json(\.gz)?$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => {
      const bytes = await fs.readFile(new URL(file, dir));
      const text = file.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
      return { workflowId: file.replace(/\.json(\.gz)?$/, ''), history: JSON.parse(text) as object };
    }),
  );
}

async function replayFailures(bundle: { code: string }, histories: { workflowId: string; history: object }[]) {
  const failures: string[] = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle: bundle, sinks: workerSinks() }, histories)) {
    if (result.error) failures.push(`${result.workflowId}: ${String(result.error)}`);
  }
  return failures;
}

/** The earlier versions a deployment still runs (deploy/running-versions.json): the only ones whose histories are kept. */
async function runningVersions(): Promise<string[]> {
  const file = new URL('../../deploy/running-versions.json', import.meta.url);
  return (JSON.parse(await fs.readFile(file, 'utf8')) as { versions: string[] }).versions;
}

async function versionFolders(): Promise<string[]> {
  try {
    return (await fs.readdir(VERSIONS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

/** What a failed replay of the current histories means, and what to do about it. */
const NEEDS_A_NEW_VERSION =
  'the workflow code now issues other commands for these histories: ship it as a new Worker Deployment version ' +
  '(docs/developing/changing-workflows.md), or keep the commands as they were';

// Histories recorded from real runs of every path (`npm run test:record-histories`). The current version's replay
// against the current code: a change that passes needs no new histories. Each earlier version that a deployment still
// runs replays against its own code, rebuilt from the commit that made it.
describe('replay of recorded histories', function () {
  this.timeout(120_000);

  it('replays every history of the current version under test/histories without a determinism error', async () => {
    const histories = await readHistories(HISTORIES_DIR);
    assert.ok(histories.length >= 10, `expected the recorded paths, found ${histories.length} histories`);
    assert.deepEqual(await replayFailures(await workflowBundle(), histories), [], NEEDS_A_NEW_VERSION);
  });

  it('keeps the histories of exactly the earlier versions a deployment still runs', async () => {
    assert.deepEqual((await versionFolders()).sort(), (await runningVersions()).sort());
  });

  it("replays each running earlier version's histories against the bundle of the commit that built it", async () => {
    for (const version of await runningVersions()) {
      const dir = new URL(`${version}/`, VERSIONS_DIR);
      const source = (await fs.readFile(new URL('source', dir), 'utf8')).trim();
      assert.deepEqual(await replayFailures(await bundleAtCommit(source), await readHistories(dir)), [], version);
    }
  });
});
