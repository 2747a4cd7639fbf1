import assert from 'node:assert/strict';
import { testTemporal } from '../../testing/temporal.js';
import { callerId } from '../../testing/fixtures.js';
import { lines, runCli } from '../../testing/run-cli.js';

describe('eligibility: Temporal refusing a request', () => {
  it('says in one line that Temporal refused the request as invalid (INVALID_ARGUMENT), not that it is unavailable', async () => {
    const run = await runCli(
      [
        'start',
        '--id',
        callerId('cli-invalid'),
        '--payer-id',
        '60054',
        '--first-name',
        'Ada',
        '--last-name',
        'Lovelace',
      ].concat(['--dob', '12/10/1985', '--place-of-service', '11', '--specialty', 'PRC']),
      // A task queue name over Temporal's 1,000-byte limit: the server refuses the start itself.
      { TEMPORAL_ADDRESS: testTemporal().server.address, TEMPORAL_TASK_QUEUE: 'q'.repeat(1001) },
    );
    assert.equal(run.code, 1);
    assert.deepEqual(lines(run.stderr), ['eligibility: Temporal refused the request as invalid']);
  });
});
