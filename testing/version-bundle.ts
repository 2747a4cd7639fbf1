import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundleWorkflowCode } from '@temporalio/worker';
import { failureConverterPath } from '../src/codec/data-converter.js';
import { workflowBundleOptions } from '../workers/workflow-bundle.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const run = promisify(execFile);

/** Built bundles of earlier versions, kept across runs (git-ignored with node_modules/; deleting it is always safe). */
const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'eligibility', 'version-bundles');

/**
 * What a bundle of a commit is made of besides the commit's own sources: the installed packages (the lockfile), the
 * bundle options and this builder, and the current failure converter they bundle. Any change there makes a new key.
 */
async function cacheKey(commit: string): Promise<string> {
  const hash = createHash('sha256').update(commit);
  const inputs = ['package-lock.json', 'workers/workflow-bundle.ts', 'testing/version-bundle.ts'];
  for (const file of [...inputs.map((f) => path.join(ROOT, f)), failureConverterPath]) {
    hash.update(await fs.readFile(file));
  }
  return `${commit}-${hash.digest('hex').slice(0, 16)}`;
}

/**
 * The workflow bundle of an earlier version, built from its commit's `workflows/` (and the contract its types come
 * from), so that version's histories replay against the code that made them. A commit's sources never change, so the
 * bundle is built once per commit and inputs (`cacheKey`) and kept under node_modules/.cache: webpack's seconds of CPU
 * per version are spent on a machine's first run only.
 */
export async function bundleAtCommit(commit: string): Promise<{ code: string }> {
  const cached = path.join(CACHE_DIR, `${await cacheKey(commit)}.js`);
  const code = await fs.readFile(cached, 'utf8').catch(() => undefined);
  if (code !== undefined) return { code };
  const built = await buildAtCommit(commit);
  await fs.mkdir(CACHE_DIR, { recursive: true });
  // Written whole under another name first: a run reading it at the same time sees the old state or the new, never half.
  const partial = `${cached}.${process.pid}.tmp`;
  await fs.writeFile(partial, built.code);
  await fs.rename(partial, cached);
  return built;
}

/** Builds the bundle from the commit's sources, unpacked under `.data/` inside the package, where webpack finds `node_modules`. */
async function buildAtCommit(commit: string): Promise<{ code: string }> {
  const dir = path.join(ROOT, '.data', 'replay-sources', commit);
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  try {
    await run('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: ROOT }).catch(() => {
      throw new Error(`commit ${commit} is not in this clone (a shallow clone?): git fetch --unshallow`);
    });
    const archive = path.join(dir, 'sources.tar');
    await run('git', ['archive', '--format=tar', '-o', archive, commit, 'workflows', 'src/contract'], { cwd: ROOT });
    await run('tar', ['-xf', archive, '-C', dir]);
    const workflows = path.join(dir, 'workflows');
    const workflowsPath = path.join(workflows, 'index.ts');
    const interceptors = path.join(workflows, 'metrics-interceptors.ts');
    const options = workflowBundleOptions({ workflowsPath });
    // The commit's interceptors, also among the preloaded modules: the bundle holds no module of today's workflows/.
    const { code } = await bundleWorkflowCode({
      ...options,
      workflowInterceptorModules: [interceptors],
      preloadModules: [workflowsPath, interceptors, failureConverterPath],
    });
    return { code };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
