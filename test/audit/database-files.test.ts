import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ownerOnly } from '../../src/store/embedded.js';

/** Every folder and file under `dir` whose permission bits let anyone but the user in. */
async function open(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const at = path.join(entry.parentPath, entry.name);
    const mode = (await stat(at)).mode & 0o777;
    if (mode !== (entry.isDirectory() ? 0o700 : 0o600)) found.push(`${mode.toString(8)} ${path.relative(dir, at)}`);
  }
  return found;
}

/**
 * The dev stack's embedded database holds the audit trail and operators' password hashes; PGlite writes its files
 * 0666 whatever the umask. With PGlite itself: lab/system/embedded-database-files.test.ts (its initdb takes seconds).
 */
describe("the dev stack's database files", () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(path.join(os.tmpdir(), 'owner-only-'))));
  after(() => rm(dir, { recursive: true, force: true }));

  it('become 0600 in folders of 0700, however deep and however open they were', async () => {
    const data = path.join(dir, 'database');
    await mkdir(path.join(data, 'base', '5'), { recursive: true, mode: 0o777 });
    for (const file of ['PG_VERSION', 'base/5/1259', 'base/5/1259_fsm']) {
      await writeFile(path.join(data, file), 'x');
      await chmod(path.join(data, file), 0o666);
    }
    await chmod(path.join(data, 'base'), 0o777);
    assert.equal((await open(data)).length, 5);
    await ownerOnly(data);
    assert.deepEqual(await open(data), []);
    assert.equal((await stat(data)).mode & 0o777, 0o700);
  });
});
