import { execFile, spawn } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The newest Temporal CLI whose Go module installs with `go install` (DESIGN §7). */
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

/** Named like `TemporalConfig`'s fields, so callers pass `config.temporal` as it is. */
export interface FindCliOptions {
  /** An explicit binary (`TEMPORAL_CLI_PATH`); when given it must work, nothing else is tried. */
  cliPath?: string | undefined;
  /** The user cache; the binary is built or downloaded into `<cacheDir>/bin`. */
  cacheDir: string;
  /** The `PATH` to search (passed in: config is read at the entry points only). */
  searchPath?: string | undefined;
  /** Whether a missing binary may be built or downloaded (false: only find). */
  install?: boolean;
  log?: (line: string) => void;
}

export class TemporalCliNotFoundError extends Error {
  constructor(readonly attempts: readonly string[]) {
    super(
      [
        'The Temporal CLI (which runs the dev server) could not be found or installed. Tried:',
        ...attempts.map((a) => `  - ${a}`),
        'Provide it in one of these ways:',
        '  - set TEMPORAL_CLI_PATH to a `temporal` binary;',
        '  - put `temporal` on PATH;',
        `  - install Go (1.23+) so it can be built: go install ${TEMPORAL_CLI_MODULE};`,
        '  - allow downloads from temporal.download (the SDK fetches it).',
      ].join('\n'),
    );
    this.name = 'TemporalCliNotFoundError';
  }
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return false;
    await fs.access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` in the folders of `searchPath`. */
export async function onPath(name: string, searchPath: string | undefined): Promise<string | undefined> {
  for (const dir of (searchPath ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** `go install` into the cache; its output goes to our stderr so a slow first build shows progress. */
async function goInstall(goBinary: string, binDir: string): Promise<void> {
  await fs.mkdir(binDir, { recursive: true });
  await new Promise<void>((resolve, reject) => {
    // `env` adds GOBIN to the inherited environment without this process reading it.
    const child = spawn('env', [`GOBIN=${binDir}`, goBinary, 'install', TEMPORAL_CLI_MODULE], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`go install exited with ${code}`))));
  });
}

/** The SDK's own download (needs temporal.download, so it fails on machines that reach only package registries). */
async function sdkDownload(downloadDir: string): Promise<string | undefined> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'cached-download', downloadDir }, ui: false },
  });
  await env.teardown();
  for (const name of await fs.readdir(downloadDir)) {
    const candidate = path.join(downloadDir, name);
    if (name.startsWith('temporal') && (await isExecutable(candidate))) return candidate;
  }
  return undefined;
}

/**
 * Finds the Temporal CLI, in the order of DESIGN §7: explicit path, PATH, the user cache, `go install` into the
 * cache, the SDK's download. Throws `TemporalCliNotFoundError` listing what was tried and how to provide it.
 */
export async function findTemporalCli(options: FindCliOptions): Promise<string> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const binDir = path.join(options.cacheDir, 'bin');
  const cached = path.join(binDir, 'temporal');
  const attempts: string[] = [];

  if (options.cliPath) {
    if (await isExecutable(options.cliPath)) return options.cliPath;
    throw new TemporalCliNotFoundError([`TEMPORAL_CLI_PATH=${options.cliPath}: not an executable file`]);
  }
  attempts.push('TEMPORAL_CLI_PATH: not set');

  const fromPath = await onPath('temporal', options.searchPath);
  if (fromPath) return fromPath;
  attempts.push('PATH: no `temporal`');

  if (await isExecutable(cached)) return cached;
  attempts.push(`user cache: no ${cached}`);

  if (options.install === false) throw new TemporalCliNotFoundError(attempts);

  const go = await onPath('go', options.searchPath);
  if (go) {
    log(
      `Building the Temporal CLI with Go into ${binDir} (the first build takes several minutes; later runs reuse it)…`,
    );
    try {
      await goInstall(go, binDir);
      if (await isExecutable(cached)) return cached;
      attempts.push(`go install ${TEMPORAL_CLI_MODULE}: finished but left no binary at ${cached}`);
    } catch (err) {
      attempts.push(`go install ${TEMPORAL_CLI_MODULE}: ${(err as Error).message}`);
    }
  } else {
    attempts.push('go: not on PATH, so the CLI cannot be built');
  }

  try {
    log('Downloading the Temporal CLI through the Temporal SDK…');
    const downloaded = await sdkDownload(path.join(options.cacheDir, 'download'));
    if (downloaded) return downloaded;
    attempts.push('SDK download: finished but left no binary');
  } catch (err) {
    attempts.push(`SDK download: ${(err as Error).message.split('\n')[0]}`);
  }
  throw new TemporalCliNotFoundError(attempts);
}

/** The CLI's own version line, e.g. "temporal version 1.5.1 (Server 1.29.1, UI 2.42.1)". */
export async function temporalCliVersion(binary: string): Promise<string> {
  const { stdout } = await execFileAsync(binary, ['--version']);
  return stdout.trim();
}
