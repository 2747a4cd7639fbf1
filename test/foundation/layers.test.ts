import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration & {
  options: Record<string, unknown>;
};

/** The rules `npm run lint:cycles` applies, run over a small tree of files written for the test. */
async function violations(files: Record<string, string>): Promise<string[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'layers-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      await fs.mkdir(path.join(dir, path.dirname(file)), { recursive: true });
      await fs.writeFile(path.join(dir, file), text);
    }
    const { tsConfig: _ignored, ...options } = config.options;
    const roots = [...new Set(Object.keys(files).map((f) => f.split('/')[0] ?? f))];
    const result = await cruise(roots, {
      ...options,
      baseDir: dir,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
    });
    const output = result.output as ICruiseResult;
    return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

describe('the layer rules (.dependency-cruiser.cjs)', function () {
  this.timeout(30_000);

  it('refuse a library importing an app, type imports included', async () => {
    const found = await violations({
      'src/temporal/client.ts': "import type { Cli } from '../../apps/cli/main';\nexport type C = Cli;\n",
      'apps/cli/main.ts': 'export interface Cli { name: string }\n',
    });
    assert.deepEqual(found, ['libraries-below-activities: src/temporal/client.ts -> apps/cli/main.ts']);
  });

  it("refuse a client reaching past a workflow family's entry, and workflows importing activities", async () => {
    const found = await violations({
      'apps/receiver/actions.ts': "import type { R } from '../../workflows/verification/review';\nexport type A = R;\n",
      'workflows/verification/review.ts':
        "import type { Acts } from '../../activities/index';\nexport type R = Acts;\n",
      'activities/index.ts': 'export interface Acts { a: 1 }\n',
    });
    assert.deepEqual(found.sort(), [
      'clients-import-a-family-entry: apps/receiver/actions.ts -> workflows/verification/review.ts',
      'workflows-import-workflows-and-the-contract: workflows/verification/review.ts -> activities/index.ts',
    ]);
  });

  it('refuse one service importing another, and a cycle between two folders', async () => {
    const found = await violations({
      'apps/console/page.ts': "import { api } from '../intake-api/api';\nexport const page = api;\n",
      'apps/intake-api/api.ts': 'export const api = 1;\n',
      'src/a/one.ts': "import { two } from '../b/two';\nexport const one = two;\n",
      'src/b/two.ts': "import type { Three } from '../a/three';\nexport const two = 2;\nexport type T = Three;\n",
      'src/a/three.ts': 'export type Three = 3;\n',
    });
    assert.ok(
      found.includes('services-are-independent: apps/console/page.ts -> apps/intake-api/api.ts'),
      found.join('\n'),
    );
    assert.ok(
      found.some((v) => v.startsWith('no-folder-cycle:')),
      `a type import closing a folder cycle is found: ${found.join('\n')}`,
    );
  });
});
