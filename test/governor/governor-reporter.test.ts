import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { CallOutcomes } from '../../activities/outcomes.js';
import { GovernorReporter } from '../../workers/governor-reporter.js';
import type { OutcomeReport } from '../../workflows/governor/governor.js';

/** A reporter whose signal-with-start only records the report: when each went and what it counted. */
function reporter() {
  const sent: OutcomeReport[] = [];
  const client = {
    workflow: {
      signalWithStart: (_: unknown, options: { signalArgs: [OutcomeReport] }) => {
        sent.push(options.signalArgs[0]);
        return Promise.resolve();
      },
    },
  } as unknown as Client;
  const outcomes = new CallOutcomes();
  const calls = (n: number) => {
    for (let i = 0; i < n; i += 1) outcomes.record();
  };
  const governorReporter = new GovernorReporter({
    client,
    taskQueue: 'q',
    workerId: 'w',
    maxRps: null,
    outcomes,
    minMs: 200,
    everyMs: 60_000,
    afterCalls: 1000,
  });
  return { governorReporter, sent, calls };
}

/** Resolves once `sent` holds `count` reports; false after `withinMs`. */
async function reports(sent: OutcomeReport[], count: number, withinMs: number): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < withinMs; await sleep(20)) {
    if (sent.length >= count) return true;
  }
  return sent.length >= count;
}

describe('the governor reporter', () => {
  it('reports twice more a second apart after a rising rate, then waits for calls or time again', async () => {
    const { governorReporter, sent, calls } = reporter();
    await governorReporter.start();
    try {
      assert.equal(sent.length, 1, 'the empty report that starts the governor');
      calls(20);
      assert.ok(await reports(sent, 2, 2000), 'a rate rising from none is reported');
      // Too few calls to be a rate rising, far from 1,000 calls or 60 s: only the report after a rising one.
      calls(5);
      assert.ok(await reports(sent, 3, 2000), 'the first follow-up report');
      assert.equal(sent[2]!.answered, 5);
      calls(5);
      assert.ok(await reports(sent, 4, 2000), 'the second follow-up report');
      calls(5);
      assert.equal(await reports(sent, 5, 1000), false, 'no report without a reason');
    } finally {
      await governorReporter.stop();
    }
  });
});
