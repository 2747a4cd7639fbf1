import { passwordProblem } from '../../src/access/operator-passwords.js';
import { CliError } from './context.js';

/** A password piped on stdin (never an argument, which other users of the machine can see), 12 characters at least. */
export async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) throw new CliError('pipe the password on stdin (it is never taken as an argument)');
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const password = text.replace(/\r?\n$/, '');
  const problem = passwordProblem(password);
  if (problem) throw new CliError(problem);
  return password;
}
