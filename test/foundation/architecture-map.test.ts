import assert from 'node:assert/strict';
import fs from 'node:fs/promises';

const ROOT = new URL('../../', import.meta.url);
const PAGE = new URL('docs/developing/architecture.md', ROOT);
const START = '<!-- tree:start -->';
const END = '<!-- tree:end -->';
/** The folders whose own folders the map names one by one: the library, family, activity and app folders. */
const EXPANDED = ['src', 'workflows', 'activities', 'apps'];

/** Folders that are no part of the tree: installed packages and the build's output (both in .gitignore). */
const NOT_THE_TREE = new Set(['node_modules', 'dist']);

/** The folders directly in `dir` (a path from the repository's root, '' for the root), as `path/`; hidden ones left out. */
async function foldersIn(dir: string): Promise<string[]> {
  const entries = await fs.readdir(new URL(dir, ROOT), { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !NOT_THE_TREE.has(entry.name))
    .map((entry) => `${dir}${entry.name}/`);
}

/** The folders on disk the map must name: every top-level folder, and every folder of the expanded ones. */
async function realFolders(): Promise<string[]> {
  const top = await foldersIn('');
  const inner = await Promise.all(
    EXPANDED.filter((name) => top.includes(`${name}/`)).map((name) => foldersIn(`${name}/`)),
  );
  return [...top, ...inner.flat()].sort();
}

/** The folders the map names: the code spans ending in `/` in the first cell of each row between the markers. */
function mappedFolders(markdown: string): string[] {
  const [start, end] = [markdown.indexOf(START), markdown.indexOf(END)];
  assert.ok(start >= 0 && end > start, `docs/developing/architecture.md has its ${START} … ${END} table`);
  const rows = markdown
    .slice(start + START.length, end)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2); // the header and its rule
  return rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([^`]+\/)`/g)].map((match) => match[1]!));
}

describe('the architecture map (docs/developing/architecture.md, "The tree")', () => {
  it('names every folder of the tree, and no folder that does not exist', async () => {
    const [real, mapped] = [await realFolders(), mappedFolders(await fs.readFile(PAGE, 'utf8'))];
    assert.ok(real.includes('workflows/shared/') && mapped.length > 0, 'the tree and the map were both read');
    const missing = real.filter((folder) => !mapped.includes(folder));
    const stale = mapped.filter((folder) => !real.includes(folder));
    const problems = [
      ...missing.map((folder) => `${folder} is in the tree but not in the map: add a row saying what it holds`),
      ...stale.map((folder) => `${folder} is in the map but not in the tree: remove or rename its row`),
    ];
    assert.deepEqual(
      problems,
      [],
      `docs/developing/architecture.md, between ${START} and ${END}:\n${problems.join('\n')}`,
    );
  });

  it('names each folder once', async () => {
    const mapped = mappedFolders(await fs.readFile(PAGE, 'utf8'));
    const twice = mapped.filter((folder, i) => mapped.indexOf(folder) !== i);
    assert.deepEqual(twice, [], `named more than once: ${twice.join(', ')}`);
  });
});
