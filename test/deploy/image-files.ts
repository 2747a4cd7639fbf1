import assert from 'node:assert/strict';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './compose-file.js';

// Reading a Dockerfile, a .dockerignore and the import graph of the bin, for test/deploy/dockerfile.test.ts.

export const root = fileURLToPath(ROOT);

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Stages of a Dockerfile (and the ARGs before the first FROM): continuation lines joined, comments dropped. */
export function parseDockerfile(text: string): { globalArgs: Record<string, string>; stages: Stage[] } {
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    if (/\\\s*$/.test(line)) {
      pending += line.replace(/\\\s*$/, ' ');
      continue;
    }
    logical.push(pending + line);
    pending = '';
  }
  const stages: Stage[] = [];
  const globalArgs: Record<string, string> = {};
  for (const line of logical.map((l) => l.trim()).filter(Boolean)) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args };
    if (instruction.keyword === 'FROM') {
      const m = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      assert.ok(m, `FROM ${args}`);
      stages.push({ from: m[1]!, ...(m[2] ? { name: m[2] } : {}), instructions: [] });
    } else if (stages.length > 0) stages.at(-1)!.instructions.push(instruction);
    else if (instruction.keyword === 'ARG') {
      const [name = '', value = ''] = args.split('=');
      globalArgs[name] = value;
    }
  }
  return { globalArgs, stages };
}

/** `COPY [--flag=…] src… dest` (shell form; the exec form is not used here). */
export function copyOf(args: string): { flags: Record<string, string>; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  const flags: Record<string, string> = {};
  while (words[0]?.startsWith('--')) {
    const [k, v = ''] = words.shift()!.slice(2).split('=');
    flags[k!] = v;
  }
  const dest = words.pop()!;
  return { flags, sources: words, dest };
}

/** .dockerignore as Docker reads it: patterns relative to the context, `!` re-includes, the last match wins. */
export function dockerignore(text: string): (file: string) => boolean {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const pattern = path.posix.normalize((negate ? l.slice(1) : l).replace(/^\/+/, ''));
      const source = pattern
        .split('**')
        .map((part) =>
          part
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]'),
        )
        .join('.*');
      return { negate, regex: new RegExp(`^${source}$`) };
    });
  return (file) => {
    // A path is excluded when it, or a folder it is in, matches (Docker does not descend into an excluded folder).
    const parts = path.posix.normalize(file).split('/');
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const rule of rules) if (prefixes.some((p) => rule.regex.test(p))) excluded = !rule.negate;
    return excluded;
  };
}

const IMPORT = /(?:^|[^.\w])(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/g;
const DYNAMIC =
  /(?:\bimport|\brequire)\(\s*['"]([^'"]+)['"]\s*\)|new URL\(\s*['"](\.[^'"]+)['"],\s*import\.meta\.url\)/g;

function resolveLocal(from: string, specifier: string): string[] {
  const target = path.resolve(path.dirname(from), specifier);
  // `new URL('../folder/', import.meta.url)`: a folder the module reads files of, all of which the image needs.
  if (specifier.endsWith('/') && fs.existsSync(target) && fs.statSync(target).isDirectory()) {
    return fs.readdirSync(target).map((name) => path.join(target, name));
  }
  const candidates = [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, path.join(target, 'index.ts')];
  const found = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
  assert.ok(found, `${path.relative(root, from)} imports ${specifier}, which does not exist`);
  return [found];
}

/** Every file the bin can load at run time, from the given entry files, and the packages they import. */
export function runtimeGraph(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.(ts|js|cjs|mjs)$/.test(file)) continue;
    const text = fs.readFileSync(file, 'utf8');
    const specifiers = [
      ...[...text.matchAll(IMPORT)].filter((m) => !m[1]).map((m) => m[2]!),
      ...[...text.matchAll(DYNAMIC)].map((m) => (m[1] ?? m[2])!),
    ];
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) queue.push(...resolveLocal(file, specifier));
      else if (!specifier.startsWith('node:') && !builtinModules.includes(specifier)) {
        const parts = specifier.split('/');
        packages.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    }
  }
  return { files, packages };
}
