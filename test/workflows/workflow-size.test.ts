import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The workflows read as their business (decision 79): a workflow function is a short script and its record holds the
// rest, so no function grows past a screen; `workflows/shared/` holds only what several families use.
const WORKFLOWS = fileURLToPath(new URL('../../workflows/', import.meta.url));
const MAX_FUNCTION_LINES = 80;
const MAX_SHARED_LINES = 800;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

/** Every function, method, arrow and constructor over `limit` lines, as `file:line name (n lines)`. */
function longFunctions(file: string, limit: number): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
      const name = node.name ? node.name.getText(source) : '(anonymous)';
      if (lines > limit) found.push(`${path.relative(WORKFLOWS, file)}:${first + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the size of workflow code', function () {
  it(`has no function under workflows/ over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = sources(WORKFLOWS).flatMap((file) => longFunctions(file, MAX_FUNCTION_LINES));
    assert.deepEqual(long, [], 'split it: the script stays in the workflow function, the rest goes to its record');
  });

  it(`keeps workflows/shared/ within ${MAX_SHARED_LINES} lines`, () => {
    const lines = sources(path.join(WORKFLOWS, 'shared')).reduce(
      (sum, file) => sum + fs.readFileSync(file, 'utf8').split('\n').length - 1,
      0,
    );
    assert.ok(lines <= MAX_SHARED_LINES, `workflows/shared/ has ${lines} lines: move a family's part to its entry`);
  });
});
