import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { isExecutable } from './find-on-path.js';
import type { CliFetchRequest, CliSource } from './temporal-cli-sources.js';

const execFileAsync = promisify(execFile);

/**
 * The Temporal SDK's own download (what `TestWorkflowEnvironment.createLocal` does), from Temporal's download site.
 * It runs in a child process bounded by `timeoutMs`: offline, a machine that drops packets instead of refusing them
 * would otherwise keep the native download waiting, and a child can be killed where a native call cannot.
 */
export function sdkDownloadSource(timeoutMs = 20_000): CliSource {
  return {
    name: "the Temporal SDK's download",
    async fetch({ version, target, workDir }: CliFetchRequest) {
      let testing: string;
      try {
        testing = import.meta.resolve('@temporalio/testing');
      } catch {
        throw new Error('@temporalio/testing is not installed (a production install has no dev dependencies)');
      }
      const downloadDir = path.join(workDir, 'sdk-download');
      // The SDK downloads before it starts the server; starting it once is the only public way to make it download.
      const script = `
        const { TestWorkflowEnvironment } = await import(${JSON.stringify(testing)});
        const env = await TestWorkflowEnvironment.createLocal({
          server: { executable: { type: 'cached-download', downloadDir: ${JSON.stringify(downloadDir)}, version: ${JSON.stringify(`v${version}`)} }, ui: false },
        });
        await env.teardown();`;
      try {
        await execFileAsync(process.execPath, ['--input-type=module', '-e', script], { timeout: timeoutMs });
      } catch (err) {
        const e = err as { killed?: boolean; stderr?: string; message: string };
        if (e.killed) throw new Error(`no answer within ${timeoutMs / 1000} s (offline?)`, { cause: err });
        const reason = /failed to download[^\n]*/.exec(e.stderr ?? '')?.[0] ?? e.message.split('\n')[0];
        throw new Error(reason, { cause: err });
      }
      for (const name of await fs.readdir(downloadDir)) {
        const candidate = path.join(downloadDir, name);
        if (name.startsWith('temporal') && (await isExecutable(candidate))) {
          await fs.rename(candidate, target);
          return;
        }
      }
      throw new Error('finished but left no binary');
    },
  };
}
