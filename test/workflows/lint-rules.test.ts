import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/**
 * Probes of the lint rules that keep workflow code replay-safe and free of zod (eslint.config.js, the workflows
 * override): each snippet is linted as if it were a file under workflows/, and must be refused or let through.
 */
describe('lint rules of workflow code', function () {
  this.timeout(30_000);
  // The project's configuration without type information: the import and global rules need none, and building the
  // TypeScript program for a probe would take seconds.
  const eslint = new ESLint({ overrideConfig: { files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked } });

  async function restrictedImports(code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: 'workflows/shared/ids.ts' });
    return (result?.messages ?? [])
      .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports' || m.ruleId === 'no-restricted-globals')
      .map((m) => m.message);
  }

  it('refuses zod, by value or by type', async () => {
    assert.equal(
      (await restrictedImports("import { z } from 'zod';\nexport const s = z.string();\n")).length > 0,
      true,
    );
    const typeOnly = await restrictedImports("import type { z } from 'zod';\nexport type S = z.ZodString;\n");
    assert.equal(typeOnly.length, 1, 'a type import of zod is refused too');
    assert.match(typeOnly[0] ?? '', /No zod in workflow code/);
  });

  it('refuses a value from src/contract, whatever the file, and allows its types', async () => {
    for (const module of ['../../src/contract/index.js', '../../src/contract/verification-intake.js']) {
      const messages = await restrictedImports(
        `import { VerificationIntake } from '${module}';\nexport const schema = VerificationIntake;\n`,
      );
      assert.equal(messages.length, 1, module);
      assert.match(messages[0] ?? '', /import type/);
    }
    const types = await restrictedImports(
      "import type { VerificationIntake } from '../../src/contract/index.js';\nexport type I = VerificationIntake;\n",
    );
    assert.deepEqual(types, []);
  });

  it('refuses Node built-ins and process, and allows the workflow SDK and workflow files', async () => {
    assert.equal((await restrictedImports("import fs from 'node:fs';\nexport const f = fs;\n")).length, 1);
    assert.equal((await restrictedImports('export const env = process.env;\n')).length, 1);
    const allowed = await restrictedImports(
      "import { sleep } from '@temporalio/workflow';\nimport { ms } from './timing.js';\nexport const s = () => sleep(ms(1));\n",
    );
    assert.deepEqual(allowed, []);
    const otherFamily = await restrictedImports(
      "import { BatchBook } from '../batch/batch-book.js';\nexport const b = BatchBook;\n",
    );
    assert.deepEqual(otherFamily, [], 'a workflow file of another family');
    const activities = await restrictedImports(
      "import { createActivities } from '../../activities/index.js';\nexport const a = createActivities;\n",
    );
    assert.equal(activities.length, 1, 'activities are not workflow code');
  });

  it('refuses patched() and deprecatePatch(): a change ships as a new worker version', async () => {
    for (const name of ['patched', 'deprecatePatch']) {
      const messages = await restrictedImports(
        `import { ${name} } from '@temporalio/workflow';\nexport const p = () => ${name}('x');\n`,
      );
      assert.equal(messages.length, 1, name);
      assert.match(messages[0] ?? '', /new worker version/);
    }
  });
});
