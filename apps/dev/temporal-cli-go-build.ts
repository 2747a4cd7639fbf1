import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { findOnPath } from './find-on-path.js';
import type { CliFetchRequest, CliSource } from './temporal-cli-sources.js';

const execFileAsync = promisify(execFile);

export const TEMPORAL_CLI_GO_MODULE = 'github.com/temporalio/cli';
/** The variable `temporal --version` prints; unset, a source build calls itself 0.0.0-DEV. */
const VERSION_VARIABLE = `${TEMPORAL_CLI_GO_MODULE}/internal/temporalcli.Version`;
/** A module of its own inside the CLI's repository, which the CLI's go.mod replaces with `./cliext`. */
const NESTED_MODULE = 'cliext';

/** The last lines of a failed step's output: the reason, without the hundreds of `go: downloading` lines before it. */
function tail(err: unknown): string {
  const { stdout, stderr, message } = err as { stdout?: string; stderr?: string; message: string };
  const jsonError = /"Error": "([^"]*)"/.exec(stdout ?? '')?.[1];
  return jsonError ?? (stderr || message).trim().split('\n').slice(-3).join(' | ');
}

interface DownloadedModule {
  Dir: string;
  /** The commit, when the module proxy names it. */
  Origin?: { Hash?: string };
}

async function modDownload(go: string, query: string, timeoutMs: number): Promise<DownloadedModule> {
  try {
    const { stdout } = await execFileAsync(go, ['mod', 'download', '-json', query], { timeout: timeoutMs });
    return JSON.parse(stdout) as DownloadedModule;
  } catch (err) {
    throw new Error(`go mod download ${query}: ${tail(err)}`, { cause: err });
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/**
 * The folder to build in. `go install` refuses the CLI's recent releases because of their `replace ./cliext`, and a
 * module download leaves out nested modules, so the build runs in a writable copy with `cliext` put back, taken from
 * the same commit (which the module proxy names in `Origin`).
 */
async function buildFolder(go: string, cli: DownloadedModule, workDir: string, timeoutMs: number): Promise<string> {
  if (await exists(path.join(cli.Dir, NESTED_MODULE))) return cli.Dir;
  const commit = cli.Origin?.Hash;
  if (!commit) {
    throw new Error(
      `the module proxy names no commit to fetch the nested module ${NESTED_MODULE} by (an offline mirror?)`,
    );
  }
  const nested = await modDownload(go, `${TEMPORAL_CLI_GO_MODULE}/${NESTED_MODULE}@${commit}`, timeoutMs);
  const copy = path.join(workDir, 'cli');
  await fs.cp(cli.Dir, copy, { recursive: true });
  await fs.cp(nested.Dir, path.join(copy, NESTED_MODULE), { recursive: true });
  // The module cache is read-only, and so are copies of it; `go build` only reads, but `rm` must be able to clean up.
  await execFileAsync('chmod', ['-R', 'u+w', copy]);
  return copy;
}

/**
 * Builds the CLI from its Go module, the way of last resort (minutes of compiling). The version is set at link time,
 * as the release builds do. Its output is kept, not shown: only a failure's last lines are reported.
 */
export function goBuildSource(timeoutMs = 30 * 60_000): CliSource {
  return {
    name: 'a Go build',
    notice: ({ version }) =>
      `Building the Temporal CLI ${version} with Go instead (5–10 minutes, once; later runs reuse it)…`,
    async fetch({ version, target, workDir, searchPath }: CliFetchRequest) {
      const go = await findOnPath('go', searchPath);
      if (!go) throw new Error('go is not on PATH');
      const cli = await modDownload(go, `${TEMPORAL_CLI_GO_MODULE}@v${version}`, timeoutMs);
      const dir = await buildFolder(go, cli, workDir, timeoutMs);
      const ldflags = `-s -w -X ${VERSION_VARIABLE}=${version}`;
      const args = ['build', '-trimpath', '-buildvcs=false', '-ldflags', ldflags, '-o', target, './cmd/temporal'];
      try {
        await execFileAsync(go, args, { cwd: dir, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
      } catch (err) {
        throw new Error(`go build: ${tail(err)}`, { cause: err });
      }
    },
  };
}
