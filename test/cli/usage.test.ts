import assert from 'node:assert/strict';
import { freePort } from '../../src/free-port.js';
import type { Command } from 'commander';
import { createContext } from '../../apps/cli/context.js';
import { buildProgram } from '../../apps/cli/program.js';
import { lines, runCli, runCliInProcess } from '../../testing/run-cli.js';

/** What `eligibility <path…> --help` prints, from the program itself (commander writes help synchronously). */
function helpOf(path: readonly string[]): string {
  let command: Command = buildProgram(createContext());
  for (const name of path) command = command.commands.find((c) => c.name() === name)!;
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk) });
  command.outputHelp();
  return text;
}

describe('eligibility command: help and usage errors', function () {
  this.timeout(60_000);

  it('prints --help in a real process: exit code 0, the usage on stdout, nothing on stderr', async () => {
    const run = await runCli(['batch', '--help']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Usage: eligibility batch /);
    assert.match(run.stdout, /CSV columns/);
    assert.equal(run.stderr, '');
  });

  it('has help for every command, with its usage line and examples where they matter', () => {
    const commands = [
      [],
      ['start'],
      ['batch'],
      ['status'],
      ['list'],
      ['supply-input'],
      ['review'],
      ['cancel'],
      ['ui'],
      ['webhooks'],
      ['webhooks', 'register'],
      ['sandbox'],
      ['worker'],
      ['dev'],
      ['receiver'],
      ['batches'],
      ['batches', 'list'],
      ['batches', 'status'],
      ['batches', 'items'],
      ['batches', 'results'],
      ['batches', 'resubmit'],
      ['batches', 'cancel'],
    ];
    const helps = commands.map((path) => helpOf(path));
    helps.forEach((help, i) => {
      const name = ['eligibility', ...commands[i]!].join(' ');
      assert.match(help, new RegExp(`^Usage: ${name} `), `${name} --help`);
    });
    assert.match(helps[2]!, /CSV columns/);
    assert.match(helps[2]!, /Examples:/);
    assert.match(helps[6]!, /may create a second one/, 'review --help says a retry risks a duplicate');
  });

  it('review: takes exactly one decision, a UUID to record, and --yes to retry without a terminal', async () => {
    const runs = await Promise.all([
      runCliInProcess(['review', 'verification-x']),
      runCliInProcess(['review', 'verification-x', '--retry', '--abandon']),
      runCliInProcess(['review', 'verification-x', '--record', 'not-a-uuid']),
      // A real process: whether it may ask depends on its standard input, closed here (not a terminal).
      runCli(['review', 'verification-x', '--retry']),
    ]);
    for (const run of runs) {
      assert.equal(run.code, 1);
      assert.equal(lines(run.stderr).length, 1, run.stderr);
    }
    assert.match(runs[0].stderr, /^eligibility: choose one of --retry, --record <verificationId> or --abandon/);
    assert.match(runs[1].stderr, /^eligibility: choose one of/);
    assert.match(runs[2].stderr, /^eligibility: --record takes the verification id found at the service/);
    assert.match(runs[3].stderr, /may create a second one\. Add --yes to retry anyway\.$/m);
  });

  it('answers an unknown command and a bad flag with one line on stderr and exit code 1', async () => {
    const [unknown, badFlag, missing] = await Promise.all([
      runCliInProcess(['stauts', 'x']),
      runCliInProcess(['list', '--nope']),
      runCliInProcess(['status']),
    ]);
    for (const run of [unknown, badFlag, missing]) {
      assert.equal(run.code, 1);
      assert.equal(run.stdout, '');
      assert.equal(lines(run.stderr).length, 1, run.stderr);
      assert.match(run.stderr, /^eligibility: /);
    }
    assert.match(unknown.stderr, /unknown command 'stauts'.*status/);
    assert.match(badFlag.stderr, /unknown option '--nope'/);
    assert.match(missing.stderr, /missing required argument 'workflowId'/);
  });

  it('names the address in one line when the Temporal server is not reachable', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    const run = await runCliInProcess(['status', 'verification-x'], { TEMPORAL_ADDRESS: address });
    assert.equal(run.code, 1);
    assert.equal(lines(run.stderr).length, 1, run.stderr);
    assert.match(run.stderr, new RegExp(`^eligibility: cannot reach the Temporal server at ${address}`));
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  });

  it('reports an invalid configuration by variable, without connecting', async () => {
    const run = await runCliInProcess(['list'], { TEMPORAL_ADDRESS: 'not-an-address' });
    assert.equal(run.code, 1);
    assert.equal(lines(run.stderr).length, 1);
    assert.match(run.stderr, /TEMPORAL_ADDRESS/);
  });
});
