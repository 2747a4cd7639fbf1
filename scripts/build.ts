import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

/**
 * `npm run build [package-dir]`: the production build in `<package-dir>/dist/` (default: this package), laid out like
 * the sources (dist/src, dist/workflows, dist/activities, dist/workers), plus dist/workflow-bundle.js, the workflow
 * bundle the compiled worker loads. With `--start` (`npm start`): the code alone, and only when an input changed since.
 *
 * esbuild only strips the types, file by file (about 0.3 s for the whole tree, where `tsc` took about 30 s); the types
 * are checked by `npm run typecheck`, which CI runs, and `isolatedModules` in tsconfig.json guarantees that a
 * file-by-file transform means what tsc would emit.
 */
const SOURCE_DIRS = ['src', 'workflows', 'activities', 'workers', 'apps', 'sandbox'];

/**
 * Files the code loads by path next to itself, copied as they are: the failure converter (require()d by the SDK) and
 * the console's stylesheet and script (served by @fastify/static).
 */
const COPIED = /\.cjs$|[/\\]apps[/\\]console[/\\]assets[/\\]/;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Strips the types of every source file into `<root>/dist/` and copies the files read by path; no workflow bundle. */
export async function compileSources(root: string): Promise<string> {
  const dist = path.join(root, 'dist');
  const files = (await Promise.all(SOURCE_DIRS.map((d) => filesUnder(path.join(root, d))))).flat();
  await build({
    entryPoints: files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
    outdir: dist,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  for (const file of files.filter((f) => COPIED.test(f))) {
    const target = path.join(dist, path.relative(root, file));
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.copyFile(file, target);
  }
  return dist;
}

/** true when the compiled code is newer than every input (the sources, this script, the manifests) by modification time. */
async function upToDate(root: string): Promise<boolean> {
  const mtime = (file: string) =>
    fs
      .stat(file)
      .then((s) => s.mtimeMs)
      .catch(() => undefined);
  const inputs = (await Promise.all(SOURCE_DIRS.map((d) => filesUnder(path.join(root, d))))).flat();
  inputs.push(fileURLToPath(import.meta.url), path.join(root, 'package.json'), path.join(root, 'package-lock.json'));
  const built = (await mtime(path.join(root, 'dist/apps/cli/main.js'))) ?? -Infinity;
  return Math.max(...(await Promise.all(inputs.map(mtime))).map((t) => t ?? Infinity)) < built;
}

async function run() {
  const args = process.argv.slice(2);
  const root = path.resolve(args.find((a) => !a.startsWith('--')) ?? fileURLToPath(new URL('..', import.meta.url)));
  // `npm start`'s: the code, compiled only when an input changed; its dev stack makes the workflow bundles (seconds of
  // webpack) itself, while its database starts.
  const forStart = args.includes('--start');
  if (forStart && (await upToDate(root))) {
    console.log(`${path.relative(process.cwd(), path.join(root, 'dist')) || 'dist'}/ is up to date`);
    return;
  }
  const started = performance.now();
  await fs.rm(path.join(root, 'dist'), { recursive: true, force: true });
  const dist = await compileSources(root);
  const compiled = ((performance.now() - started) / 1000).toFixed(1);
  if (forStart) {
    console.log(
      `Compiled ${path.relative(process.cwd(), dist) || dist}/ in ${compiled} s (the workflow bundles follow)`,
    );
    return;
  }
  // Bundled by the compiled code, from the compiled workflows: the bundle is made of what ships.
  await promisify(execFile)(process.execPath, [path.join(dist, 'workers/build-workflow-bundle.js')], { cwd: root });
  const total = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Built ${path.relative(process.cwd(), dist) || dist}/ (code in ${compiled} s, workflow bundle, ${total} s in all)`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  run().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
