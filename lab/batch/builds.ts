import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A compiled copy of the package: its `eligibility` command runs that copy's code, whatever the checkout holds now. */
export interface Build {
  name: string;
  dir: string;
  /** `node <bin> <role>` runs a role of this build. */
  bin: string;
}

/**
 * Under `.data/`, inside the package, so that the copy's imports find the checkout's `node_modules`; built with the
 * copy's own build script (`npm run build <dir>`: its dist/ and workflow bundle).
 */
async function built(name: string, fill: (dir: string) => Promise<void>): Promise<Build> {
  const dir = path.join(ROOT, '.data', 'lab-builds', name);
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  await fill(dir);
  await run(process.execPath, ['--import', 'tsx', path.join(dir, 'scripts/build.ts'), dir], { cwd: ROOT });
  return { name, dir, bin: path.join(dir, 'bin/eligibility.js') };
}

/** The package as `commit` holds it (a full clone is needed for an old one). */
export function buildAtCommit(commit: string): Promise<Build> {
  return built(`commit-${commit}`, async (dir) => {
    const archive = path.join(dir, 'sources.tar');
    await run('git', ['archive', '--format=tar', '-o', archive, commit], { cwd: ROOT });
    await run('tar', ['-xf', archive, '-C', dir]);
    await fs.rm(archive);
  });
}

/** The package as the checkout holds it now, uncommitted changes included: tracked and untracked, not ignored. */
export function buildWorkingTree(): Promise<Build> {
  return built('working-tree', async (dir) => {
    const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    for (const file of new Set(stdout.split('\0').filter(Boolean))) {
      const target = path.join(dir, file);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // A tracked file deleted in the checkout is not part of it.
      await fs.copyFile(path.join(ROOT, file), target).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    }
  });
}

export async function removeBuild(build: Build): Promise<void> {
  await fs.rm(build.dir, { recursive: true, force: true });
}
