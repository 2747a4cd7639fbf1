import { randomBytes } from 'node:crypto';
import type { Config } from '../../src/config.js';
import { operatorEntry, parseOperators } from '../../src/access/operator-passwords.js';

/** The operator `eligibility dev` makes when CONSOLE_OPERATORS is unset; its password is new every run. */
export const DEV_OPERATOR = 'dev';

/** Who signs in to the dev stack's console: the first of CONSOLE_OPERATORS when set, else `dev`. */
export const devOperatorName = (config: Config): string =>
  config.console.operators ? [...parseOperators(config.console.operators).keys()][0]! : DEV_OPERATOR;

export interface DevConsole {
  config: Config;
  /** Printed by `eligibility dev`; undefined when CONSOLE_OPERATORS was set (those passwords are not known here). */
  credentials: { name: string; password: string } | undefined;
}

/**
 * The dev stack's console sign-in: CONSOLE_OPERATORS when set, else one operator with a password made for this run
 * and printed once, and a session key made for this run unless one is set. No password is published anywhere.
 */
export async function devConsole(config: Config): Promise<DevConsole> {
  const sessionSecret = config.console.sessionSecret ?? randomBytes(32).toString('hex');
  if (config.console.operators) {
    return { config: { ...config, console: { ...config.console, sessionSecret } }, credentials: undefined };
  }
  const password = randomBytes(12).toString('base64url');
  const operators = await operatorEntry(DEV_OPERATOR, password);
  return {
    config: { ...config, console: { ...config.console, operators, sessionSecret } },
    credentials: { name: DEV_OPERATOR, password },
  };
}
