import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { CommanderError } from 'commander';
import { ConfigError } from '../../src/config.js';
import { IntakeFileError } from '../../src/intake-files/read-requests.js';
import { InvalidPageToken } from '../../src/pages.js';
import {
  missingSearchAttribute,
  missingSearchAttributeMessage,
  temporalFailureReason,
} from '../../src/temporal/errors.js';
import { IntakeValidationError } from '../../src/temporal/start-verification.js';
import { BatchFileError } from '../../src/batches/file-batch.js';
import { CliError } from './context.js';

export interface ErrorReport {
  /** The one line for stderr (without the `eligibility: ` prefix); undefined = nothing to print (help shown). */
  line: string | undefined;
  exitCode: number;
}

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() || 'unknown error';
}

/** The innermost message of a failure chain (WorkflowFailedError -> ActivityFailure -> ApplicationFailure). */
export function rootCause(err: unknown): string {
  let current: unknown = err;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return firstLine((current as Error).message);
}

/** Turns anything a command throws into one readable line and an exit code (1, or 2 for rejected intake). */
export function reportError(err: unknown, temporalAddress: () => string | undefined): ErrorReport {
  if (err instanceof CommanderError) {
    // Help and version were printed by commander already; usage errors come as "error: …\n(Did you mean …?)".
    if (['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(err.code)) {
      return { line: undefined, exitCode: err.exitCode };
    }
    return { line: err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' '), exitCode: err.exitCode || 1 };
  }
  if (err instanceof CliError || err instanceof BatchFileError) return { line: err.message, exitCode: err.exitCode };
  if (err instanceof IntakeFileError) return { line: err.message, exitCode: 2 };
  if (err instanceof IntakeValidationError) return { line: `invalid request: ${err.message}`, exitCode: 1 };
  if (err instanceof InvalidPageToken) return { line: `--page-token: ${err.message}`, exitCode: 1 };
  if (err instanceof ConfigError) return { line: err.message, exitCode: 1 };
  if (err instanceof WorkflowNotFoundError) return { line: `no workflow ${err.workflowId}`, exitCode: 1 };
  if (err instanceof WorkflowFailedError) return { line: `the workflow failed: ${rootCause(err)}`, exitCode: 1 };
  const unregistered = missingSearchAttribute(err);
  if (unregistered) return { line: missingSearchAttributeMessage(unregistered), exitCode: 1 };
  switch (temporalFailureReason(err)) {
    case 'unreachable':
      return { line: `the Temporal server at ${temporalAddress() ?? 'TEMPORAL_ADDRESS'} is unavailable`, exitCode: 1 };
    case 'no-answer':
      return { line: 'Temporal did not answer in time', exitCode: 1 };
    case 'refused':
      // Retrying the same command cannot help.
      return { line: 'Temporal refused the request as invalid', exitCode: 1 };
    default:
  }
  return { line: firstLine(err instanceof Error ? err.message : String(err)), exitCode: 1 };
}
