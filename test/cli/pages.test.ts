import assert from 'node:assert/strict';
import type { Command } from 'commander';
import { createContext } from '../../apps/cli/context.js';
import { reportError } from '../../apps/cli/errors.js';
import { buildProgram } from '../../apps/cli/program.js';
import { PAGE_SIZE, pageToken } from '../../src/pages.js';

/** The list commands: the intake API's lists and the audit trail, each paged as the API pages (decision 76). */
const LIST_COMMANDS = [
  ['list'],
  ['batches', 'list'],
  ['batches', 'items'],
  ['endpoints', 'list'],
  ['endpoints', 'deliveries'],
  ['audit', 'list'],
];

const commandAt = (path: readonly string[]): Command => {
  let command: Command = buildProgram(createContext());
  for (const name of path) command = command.commands.find((c) => c.name() === name)!;
  return command;
};

/** Runs the program in this process as `eligibility <args>`, and reports its failure as the real one would. */
async function failure(args: readonly string[]) {
  const program = buildProgram(createContext());
  try {
    await program.parseAsync(['node', 'eligibility', ...args]);
  } catch (err) {
    return reportError(err, () => undefined);
  }
  assert.fail(`eligibility ${args.join(' ')} succeeded`);
}

describe('eligibility list commands: --limit and --page-token', () => {
  it('every list command takes --limit (the API’s default and maximum) and --page-token', () => {
    for (const path of LIST_COMMANDS) {
      const options = commandAt(path).options;
      const limit = options.find((o) => o.long === '--limit');
      assert.equal(limit?.defaultValue, PAGE_SIZE.default, `${path.join(' ')} --limit`);
      assert.match(limit?.description ?? '', new RegExp(`1–${PAGE_SIZE.max}`), `${path.join(' ')} --limit`);
      assert.ok(
        options.some((o) => o.long === '--page-token'),
        `${path.join(' ')} --page-token`,
      );
    }
  });

  it('refuses a limit over the maximum, and a token of another list, naming the option', async () => {
    const over = await failure(['audit', 'list', '--limit', String(PAGE_SIZE.max + 1)]);
    assert.equal(over?.exitCode, 1);
    assert.match(over?.line ?? '', new RegExp(`'--limit <n>' argument '${PAGE_SIZE.max + 1}' is invalid`));
    const token = pageToken('deliveries', { at: 0, id: '1' });
    for (const bad of [token, 'e30', 'not a token']) {
      // Read before anything connects: no database or Temporal is needed to refuse it.
      const refused = await failure(['audit', 'list', '--page-token', bad]);
      assert.deepEqual(refused, {
        line: '--page-token: not a page token of this list: pass back the one the page before gave, with the same filters',
        exitCode: 1,
      });
    }
  });
});

describe('eligibility: a mistyped command', () => {
  it('suggests the command a word cut short or one slip from it, else none: `stat` is `status`, not `start`', async () => {
    assert.deepEqual(await failure(['stat']), {
      line: "unknown command 'stat' (Did you mean status?)",
      exitCode: 1,
    });
    assert.match((await failure(['stauts']))?.line ?? '', /\(Did you mean status\?\)$/);
    assert.match((await failure(['batches', 'item']))?.line ?? '', /\(Did you mean items\?\)$/);
    assert.equal((await failure(['zzz']))?.line, "unknown command 'zzz'");
  });
});
