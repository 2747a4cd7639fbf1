import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.js';
import { parseCsvRequests } from '../../src/intake-files/read-requests.js';
import { startRequests, type RetryNotice } from './start-requests.js';
import { validateRows } from '../../src/intake-files/validate-rows.js';
import { connectClient, type TemporalClient } from '../../src/temporal/client.js';
import { testDataConverter } from '../../testing/codec.js';
import { callerId } from '../../testing/fixtures.js';
import { startTcpProxy, type TcpProxy } from '../../testing/tcp-proxy.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';

function rows(count: number, withIds = true) {
  const lines = ['id,payerId,firstName,lastName,dateOfBirth,state,placeOfServiceCode,specialtyCode'];
  for (let i = 0; i < count; i++)
    lines.push(`${withIds ? callerId('outage') : ''},60054,Ada,Lovelace,12/10/1985,NY,11,PRC`);
  const { valid, invalid } = validateRows(parseCsvRequests(lines.join('\n')));
  assert.equal(invalid.length, 0);
  return valid;
}

// The run's dev server behind a TCP proxy that refuses connections: a Temporal outage during a batch.
describe('the faults bench’s starts through a Temporal outage', function () {
  this.timeout(30_000);
  let proxy: TcpProxy;
  let temporal: TemporalClient;
  const taskQueue = 'batch-outage-never-polled';

  before(async () => {
    proxy = await startTcpProxy(testTemporal().server.address);
    const config = loadConfig('intake', { TEMPORAL_ADDRESS: proxy.address });
    temporal = await connectClient(
      { ...config.temporal, namespace: testTemporal().server.namespace },
      { dataConverter: testDataConverter() },
    );
  });
  after(async () => {
    await temporal?.close();
    await proxy?.close();
  });

  it('retries the starts that failed while Temporal was unreachable, so every row starts once, and reports waiting rows', async () => {
    const valid = [...rows(4), ...rows(2, false)];
    await proxy.refuse();
    const notices: RetryNotice[] = [];
    const outcomes = startRequests(temporal.client, valid, {
      taskQueue,
      concurrency: 3,
      onRetry: (notice) => notices.push(notice),
    });
    await sleep(3000);
    await proxy.accept();
    const results = await outcomes;
    assert.deepEqual(
      results.map((o) => o.status),
      valid.map(() => 'started'),
      JSON.stringify(results),
    );
    assert.ok(notices.length >= 3, 'rows waiting for Temporal were reported');
    const ids = results.map((o) => (o.status === 'started' ? o.workflowId : ''));
    assert.equal(new Set(ids).size, valid.length);
    for (const workflowId of ids) {
      // Visibility trails the starts by a moment: wait for the first, then there must be exactly one.
      const count = await eventually(async () => {
        const counted = (await testTemporal().client.workflow.count(`WorkflowId = "${workflowId}"`)).count;
        return counted > 0 ? counted : undefined;
      });
      assert.equal(count, 1, `${workflowId} started once`);
    }
  });

  it('gives up after its retry budget, naming Temporal in the row’s failure', async () => {
    const valid = rows(1);
    await proxy.refuse();
    try {
      const [outcome] = await startRequests(temporal.client, valid, { taskQueue, concurrency: 1, retryForMs: 1500 });
      assert.equal(outcome?.status, 'failed');
      assert.match(outcome.status === 'failed' ? outcome.message : '', /^Temporal did not answer \(retried for 2 s\)/);
    } finally {
      await proxy.accept();
    }
  });
});
