import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { countBatchItems } from '../../activities/batch/count.js';

type Item = { status: string; stage: string };

/**
 * Visibility answers each count at its own moment. This stand-in for it holds items (status and stage) and answers
 * every count call after a delay of its own, reading the items as they are when it answers; an item closes after the
 * `closeAfter`-th answer. Only the query shapes `countBatchItems` writes are understood (anything else throws).
 */
function movingVisibility(items: Item[], closeAfter = Infinity, delayOf: (query: string) => number = () => 1) {
  let answered = 0;
  const matches = (item: Item, query: string) =>
    query
      .replace(/ GROUP BY ExecutionStatus$/, '')
      .split(' AND ')
      .every((condition) => {
        if (/^(BatchId|WorkflowType) = /.test(condition)) return true;
        const status = /^ExecutionStatus = "(\w+)"$/.exec(condition);
        if (status) return item.status === status[1];
        const statuses = /^ExecutionStatus IN \((.*)\)$/.exec(condition);
        if (statuses) return statuses[1]!.split(', ').includes(`"${item.status}"`);
        const stage = /^VerificationStage = "([\w-]+)"$/.exec(condition);
        if (stage) return item.stage === stage[1];
        const noneOf = /^\(VerificationStage IS NULL OR VerificationStage NOT IN \((.*)\)\)$/.exec(condition);
        if (noneOf) return !noneOf[1]!.split(', ').includes(`"${item.stage}"`);
        throw new Error(`a condition this stand-in does not know: ${condition}`);
      });
  const client = {
    workflow: {
      async count(query: string) {
        for (let i = 0; i < delayOf(query); i++) await new Promise((resolve) => setImmediate(resolve));
        const found = items.filter((item) => matches(item, query));
        answered += 1;
        // Completing from `created` leaves `created` indexed (decision 66).
        if (answered === closeAfter) Object.assign(items[1]!, { status: 'Completed' });
        if (!query.endsWith('GROUP BY ExecutionStatus')) return { count: found.length, groups: [] };
        const statuses = [...new Set(found.map((item) => item.status))];
        const groups = statuses.map((s) => ({ groupValues: [s], count: found.filter((i) => i.status === s).length }));
        return { count: found.length, groups };
      },
    },
  };
  return client as unknown as Client;
}

describe('a batch’s item counts while items close', () => {
  const orders = {
    'in the order asked': () => 1,
    'the status count answered last': (query: string) => (query.endsWith('GROUP BY ExecutionStatus') ? 20 : 1),
    'the status count answered first': (query: string) => (query.endsWith('GROUP BY ExecutionStatus') ? 0 : 5),
  };

  for (const [order, delayOf] of Object.entries(orders)) {
    it(`never counts an item that closes meanwhile as failed, nor as closed when it is not (${order})`, async () => {
      for (let closeAfter = 0; closeAfter <= 17; closeAfter++) {
        const items = [
          { status: 'Completed', stage: 'completed' },
          { status: 'Running', stage: 'created' },
        ];
        const counts = await countBatchItems(movingVisibility(items, closeAfter, delayOf), 'b-1');
        const running = Object.values(counts.running).reduce((a, b) => a + b, 0);
        const at = `closing after answer ${closeAfter}: ${JSON.stringify(counts)}`;
        assert.equal(counts.outcomes.failed, 0, at);
        assert.ok(counts.outcomes.completed >= 1 && counts.outcomes.completed <= 2, at);
        // Both closed is claimed only when both are counted closed and none as running: what lets a batch finish.
        if (running === 0 && counts.total >= 2) assert.equal(counts.outcomes.completed, 2, at);
      }
    });
  }

  it('counts an item that closed without recording an outcome as failed, and no other', async () => {
    const items = [
      { status: 'Failed', stage: 'creating' },
      { status: 'Completed', stage: 'completed' },
      { status: 'Running', stage: 'awaiting-input' },
    ];
    const counts = await countBatchItems(movingVisibility(items), 'b-1');
    assert.deepEqual(
      [counts.outcomes.failed, counts.outcomes.completed, counts.running['awaiting-input'], counts.total],
      [1, 1, 1, 3],
      JSON.stringify(counts),
    );
  });

  it('counts `created` as completed once closed completed, as failed once closed failed, and as created running', async () => {
    const items = [
      { status: 'Completed', stage: 'created' },
      { status: 'Failed', stage: 'created' },
      { status: 'Running', stage: 'created' },
      { status: 'Completed', stage: 'completed' },
    ];
    const counts = await countBatchItems(movingVisibility(items), 'b-1');
    assert.deepEqual(
      [counts.outcomes.completed, counts.outcomes.failed, counts.running.created, counts.total],
      [2, 1, 1, 4],
      JSON.stringify(counts),
    );
  });
});
