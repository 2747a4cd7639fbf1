import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The CLI's own version line, e.g. "temporal version 1.9.1 (Server 1.32.0, UI 2.54.1)". */
export async function temporalCliVersion(binary: string): Promise<string> {
  // A binary that hangs must not hang the finder: `--version` answers in well under a second.
  const { stdout } = await execFileAsync(binary, ['--version'], { timeout: 15_000 });
  return stdout.trim();
}

/** The bare version ("1.9.1") a binary reports, or undefined when it does not run or says something else. */
export async function cliVersionOf(binary: string): Promise<string | undefined> {
  try {
    return /^temporal version (\S+)/.exec(await temporalCliVersion(binary))?.[1];
  } catch {
    return undefined;
  }
}
