import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** What a production install has of the package besides node_modules: the build's input and the files read by path. */
const PACKAGE_FILES = [
  'package.json',
  'tsconfig.json',
  'bin',
  'deploy',
  'examples',
  'src',
  'workflows',
  'activities',
  'workers',
  'apps',
  'sandbox',
];

/**
 * A copy of the package in a temporary folder, built with `npm run build`, whose node_modules holds what
 * `npm ci --omit=dev` installs: every top-level package of the lockfile not marked dev-only (linked to this checkout's
 * copy, so nothing is downloaded). tsx, esbuild and @temporalio/testing are absent: code that imports them fails.
 */
export async function buildProductionCopy(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-production-'));
  for (const file of PACKAGE_FILES) await fs.cp(path.join(ROOT, file), path.join(dir, file), { recursive: true });
  const lock = JSON.parse(await fs.readFile(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  for (const [key, entry] of Object.entries(lock.packages)) {
    const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(key)?.[1];
    if (name === undefined || entry.dev === true) continue;
    const link = path.join(dir, 'node_modules', name);
    await fs.mkdir(path.dirname(link), { recursive: true });
    await fs.symlink(path.join(ROOT, 'node_modules', name), link, 'dir');
  }
  // The build itself runs with this checkout's dev dependencies, as the image's build stage has them.
  await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/build.ts'), dir], {
    cwd: ROOT,
  });
  return dir;
}
