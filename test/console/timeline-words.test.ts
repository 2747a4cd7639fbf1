import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { timelineOf } from '../../apps/console/reads/timeline.js';
import { HISTORIES_DIR } from '../../testing/histories.js';

// Issue 62: a verification's timeline reads in an operator's words: no message name, no Temporal identity.
describe("console: a verification's timeline in an operator's words", () => {
  it('says what a discovery handing over its answer is, without Temporal names', async () => {
    for (const file of ['discovery-by-signal.json', 'discovery-by-polling.json']) {
      const history = historyFromJSON(JSON.parse(await fs.readFile(new URL(file, HISTORIES_DIR), 'utf8')));
      const entries = await timelineOf(history.events ?? []);
      const said = entries.map((e) => `${e.text} ${e.identity ?? ''}`).join('\n');
      assert.doesNotMatch(said, /discoveryHandout|history-service|\bmessage\b/, `${file}:\n${said}`);
      assert.ok(
        entries.some((e) => e.text === 'the discovery handed over its answer'),
        `${file}: the hand-over is named:\n${said}`,
      );
    }
  });
});
