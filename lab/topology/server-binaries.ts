import { execFile, spawn } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { temporalVersions } from '../../apps/dev/temporal-release.js';

const execFileAsync = promisify(execFile);

/** The Go module of the Temporal server; its `cmd/server` and `cmd/tools/sql` are what the topology runs. */
const SERVER_MODULE = 'go.temporal.io/server';

/** Each binary: the package it is built from, the name `go install` gives it, and the name it is cached under. */
const BINARIES = {
  server: { pkg: `${SERVER_MODULE}/cmd/server`, built: 'server', cached: 'temporal-server' },
  sqlTool: { pkg: `${SERVER_MODULE}/cmd/tools/sql`, built: 'sql', cached: 'temporal-sql-tool' },
} as const;

export interface ServerBinaries {
  version: string;
  /** `temporal-server`, whose `start --service <name>` runs one of frontend, history, matching, worker. */
  server: string;
  /** `temporal-sql-tool`, which creates the databases and applies the schemas embedded in the server module. */
  sqlTool: string;
}

export class ServerBuildError extends Error {
  override name = 'ServerBuildError';
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await fs.access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Runs a command with its output on our stderr (a cold build is long: its progress shows). */
async function run(command: string, args: readonly string[], cwd?: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new ServerBuildError(`${args.slice(0, 6).join(' ')} exited with ${code}`)),
    );
  });
}

/**
 * `go install <both>@v<version>` into a staging folder, at low priority so the rest of the machine keeps its cores.
 * `go install pkg@version` refuses modules whose go.mod has replace directives; then the module is downloaded and its
 * commands built inside it, which honours them.
 */
async function build(go: string, version: string, stagingDir: string): Promise<void> {
  const packages = Object.values(BINARIES).map((b) => `${b.pkg}@v${version}`);
  try {
    await run('env', [`GOBIN=${stagingDir}`, 'nice', '-n', '10', go, 'install', ...packages]);
    return;
  } catch (err) {
    process.stderr.write(`go install failed (${(err as Error).message}); building inside the downloaded module\n`);
  }
  const { stdout } = await execFileAsync(go, ['mod', 'download', '-json', `${SERVER_MODULE}@v${version}`]);
  const moduleDir = (JSON.parse(stdout) as { Dir?: string }).Dir;
  if (!moduleDir) throw new ServerBuildError(`go mod download ${SERVER_MODULE}@v${version} gave no module folder`);
  for (const binary of Object.values(BINARIES)) {
    const relative = `./${binary.pkg.slice(SERVER_MODULE.length + 1)}`;
    const output = path.join(stagingDir, binary.built);
    await run('nice', ['-n', '10', go, 'build', '-o', output, relative], moduleDir);
  }
}

/** Confirms a cached binary is the version its name says (a half-written or foreign file is rebuilt). */
async function reportsVersion(binary: string, version: string): Promise<boolean> {
  try {
    const { stdout } = await execFileAsync(binary, ['--version']);
    return stdout.includes(version);
  } catch {
    return false;
  }
}

/**
 * The Temporal server and its SQL tool at the release of `deploy/temporal/versions.json`, cached like the CLI in
 * `<cacheDir>/bin` under names carrying the version, so a version change builds anew and an unchanged one is reused.
 * The first build compiles the whole server from the Go module proxy: several minutes, more on a busy machine.
 */
export async function ensureServerBinaries(options: {
  cacheDir: string;
  /** The `go` binary; only needed when a binary is not cached yet. */
  go: string | undefined;
  version?: string;
  log: (line: string) => void;
}): Promise<ServerBinaries> {
  const version = options.version ?? temporalVersions.server;
  const binDir = path.join(options.cacheDir, 'bin');
  const target = (name: string) => path.join(binDir, `${name}-${version}`);
  const binaries: ServerBinaries = {
    version,
    server: target(BINARIES.server.cached),
    sqlTool: target(BINARIES.sqlTool.cached),
  };
  const cached = await Promise.all(
    [binaries.server, binaries.sqlTool].map(
      async (file) => (await isExecutable(file)) && reportsVersion(file, version),
    ),
  );
  if (cached.every(Boolean)) {
    options.log(`Temporal server ${version} and SQL tool: cached in ${binDir}`);
    return binaries;
  }
  if (!options.go) {
    throw new ServerBuildError(
      `Temporal server ${version} is not in ${binDir} and there is no \`go\` on PATH to build it: install Go 1.23+ ` +
        `(go install ${BINARIES.server.pkg}@v${version} ${BINARIES.sqlTool.pkg}@v${version}).`,
    );
  }
  options.log(
    `Building Temporal server ${version} and its SQL tool with Go into ${binDir} (first time only: 10-30 minutes ` +
      `on 2 cores, at low priority; later runs reuse them)…`,
  );
  const startedAt = Date.now();
  await fs.mkdir(binDir, { recursive: true });
  const stagingDir = await fs.mkdtemp(path.join(binDir, `.build-${version}-`));
  try {
    await build(options.go, version, stagingDir);
    for (const binary of Object.values(BINARIES)) {
      // A rename within the folder: another run never sees a half-written binary under the final name.
      await fs.rename(path.join(stagingDir, binary.built), target(binary.cached));
    }
  } finally {
    await fs.rm(stagingDir, { recursive: true, force: true });
  }
  if (!(await reportsVersion(binaries.server, version))) {
    throw new ServerBuildError(`${binaries.server} was built but does not report version ${version}`);
  }
  options.log(`Built in ${Math.round((Date.now() - startedAt) / 1000)} s: ${binaries.server}, ${binaries.sqlTool}`);
  return binaries;
}
