import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../workers/workflow-bundle.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const run = promisify(execFile);

/**
 * The workflow bundle of an earlier version, built from its commit's `workflows/` (and the contract its types come
 * from), so that version's histories replay against the code that made them. The sources are unpacked under `.data/`,
 * inside the package, where the bundler finds `node_modules`.
 */
export async function bundleAtCommit(commit: string): Promise<{ code: string }> {
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
    const options = workflowBundleOptions({ workflowsPath: path.join(workflows, 'index.ts') });
    const { code } = await bundleWorkflowCode({
      ...options,
      workflowInterceptorModules: [path.join(workflows, 'metrics-interceptors.ts')],
    });
    return { code };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
