import os from 'node:os';
import type { Client } from '@temporalio/client';
import { InvalidArgumentError } from 'commander';
import { loadConfig, type Config, type Role } from '../../src/config.js';

// Commands import the Temporal client and the intake code when they run, not at the top: `--help` and usage errors
// then answer without loading them (through tsx that costs a second or two per run).

/** An error meant for the person at the terminal: printed as one line, `eligibility: <message>`, then exit. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** What every command gets from the entry point. */
export interface CliContext {
  /**
   * The configuration, read from the environment once, on first use (so `--help` works with a broken env): the
   * variables of `role`, which a server command names first (`ctx.config('worker')`); a client command's are `cli`.
   */
  config(role?: Role): Config;
  /**
   * The person the command acts for, as workflow history records it with each signal and update (`cli:<name>`): the
   * global `--as <name>`, else the user logged in to this machine.
   */
  identity(): string;
  /** The name `--as` gave, if any: whom apps/cli/person.ts looks up in the operator directory. */
  named(): string | undefined;
}

export function createContext(person: () => string | undefined = () => undefined): CliContext {
  let config: Config | undefined;
  let loadedAs: Role = 'cli';
  return {
    config: (role) => {
      // One process, one role: a second one would use variables the first left unread.
      if (config && role && role !== loadedAs) throw new Error(`configuration read as ${loadedAs}, then ${role}`);
      loadedAs = role ?? loadedAs;
      return (config ??= loadConfig(loadedAs));
    },
    identity: () => `cli:${person() ?? os.userInfo().username}`,
    named: person,
  };
}

/** Runs `fn` with a Temporal client, closing the connection afterwards whatever happens. */
export async function withClient<T>(ctx: CliContext, fn: (client: Client, config: Config) => Promise<T>): Promise<T> {
  const config = ctx.config();
  const { connectClient } = await import('../../src/temporal/client.js');
  const { createDataConverter } = await import('../../src/codec/data-converter.js');
  const temporal = await connectClient(config.temporal, {
    dataConverter: await createDataConverter(config.codec),
    identity: ctx.identity(),
  });
  try {
    return await fn(temporal.client, config);
  } finally {
    await temporal.close();
  }
}

/** Runs `fn` with the project's database (DATABASE_URL), closing it afterwards whatever happens. */
export async function withStore<T>(
  ctx: CliContext,
  fn: (store: import('../../src/store/database.js').Store, config: Config) => Promise<T>,
): Promise<T> {
  const config = ctx.config();
  if (!config.database.url) {
    throw new CliError('DATABASE_URL is not set: the intake clients and the audit trail live in that database');
  }
  const { openStore } = await import('../../src/store/database.js');
  const store = await openStore(config.database.url);
  try {
    return await fn(store, config);
  } finally {
    await store.close();
  }
}

/**
 * Runs `fn` with the project's database when DATABASE_URL names one (the servers: their callers' credentials and the
 * audit trail), else with none; closes it afterwards whatever happens.
 */
export async function withOptionalStore<T>(
  ctx: CliContext,
  fn: (store: import('../../src/store/database.js').Store | undefined) => Promise<T>,
): Promise<T> {
  return ctx.config().database.url ? withStore(ctx, (store) => fn(store)) : fn(undefined);
}

/** Aborted on the first Ctrl-C (SIGINT) or SIGTERM, for commands that run until stopped. */
export function untilInterrupted(): AbortSignal {
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  return controller.signal;
}

/** Option parser for a positive integer; commander names the option when it throws. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer.');
  return n;
}
