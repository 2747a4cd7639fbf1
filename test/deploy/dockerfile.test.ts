import assert from 'node:assert/strict';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readText, ROOT } from './compose-file.js';

// Docker cannot run here (no engine, no buildx), so the image is checked statically: the Dockerfile's shape, that
// what it copies exists and reaches the build context, and that everything the `eligibility` bin loads at run time is
// inside what it copies and installed by `npm ci --omit=dev`.

const root = fileURLToPath(ROOT);

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Stages of a Dockerfile (and the ARGs before the first FROM): continuation lines joined, comments dropped. */
function parseDockerfile(text: string): { globalArgs: Record<string, string>; stages: Stage[] } {
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
function copyOf(args: string): { flags: Record<string, string>; sources: string[]; dest: string } {
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
function dockerignore(text: string): (file: string) => boolean {
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

function resolveLocal(from: string, specifier: string): string {
  const target = path.resolve(path.dirname(from), specifier);
  const candidates = [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, path.join(target, 'index.ts')];
  const found = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
  assert.ok(found, `${path.relative(root, from)} imports ${specifier}, which does not exist`);
  return found;
}

/** Every file the bin can load at run time, from the given entry files, and the packages they import. */
function runtimeGraph(entries: string[]): { files: Set<string>; packages: Set<string> } {
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
      if (specifier.startsWith('.')) queue.push(resolveLocal(file, specifier));
      else if (!specifier.startsWith('node:') && !builtinModules.includes(specifier)) {
        const parts = specifier.split('/');
        packages.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    }
  }
  return { files, packages };
}

describe('Dockerfile', () => {
  let stages: Stage[];
  let globalArgs: Record<string, string>;
  let ignored: (file: string) => boolean;

  before(async () => {
    ({ stages, globalArgs } = parseDockerfile(await readText('Dockerfile')));
    ignored = dockerignore(await readText('.dockerignore'));
  });

  const final = () => stages.at(-1)!;
  const all = (keyword: string, stage?: Stage) =>
    (stage ? [stage] : stages).flatMap((s) => s.instructions.filter((i) => i.keyword === keyword));

  it('is multi-stage, on a pinned base, installing production dependencies only from the lockfile', () => {
    assert.ok(stages.length >= 2, 'a dependency stage and a runtime stage');
    const install = all('RUN').find((i) => /\bnpm ci\b/.test(i.args));
    assert.ok(install, 'npm ci');
    assert.match(install.args, /--omit=dev/);
    assert.doesNotMatch(
      all('RUN', final())
        .map((i) => i.args)
        .join('\n'),
      /\bnpm (ci|install)\b/,
    );
    for (const { from } of stages) {
      const image = from.replace(/^\$\{(\w+)\}$/, (_, name: string) => globalArgs[name] ?? from);
      if (stages.some((s) => s.name === image)) continue;
      assert.match(image, /^[\w./-]+:[\w.-]+$/, `${from}: a tagged image`);
      assert.doesNotMatch(image, /:latest$/);
    }
  });

  it('copies only paths that exist in the repository and reach the build context past .dockerignore', () => {
    const copies = all('COPY')
      .concat(all('ADD'))
      .map((i) => copyOf(i.args));
    assert.ok(copies.length > 0);
    for (const { flags, sources } of copies) {
      if (flags.from !== undefined) {
        assert.ok(
          stages.some((s) => s.name === flags.from),
          `--from=${flags.from} names a stage of this Dockerfile`,
        );
        continue;
      }
      for (const source of sources) {
        assert.ok(fs.existsSync(path.join(root, source)), `COPY ${source}: exists in the repository`);
        assert.ok(!ignored(source), `COPY ${source}: not excluded by .dockerignore`);
      }
    }
    for (const secret of ['.env', '.data', 'node_modules', '.git', 'test']) assert.ok(ignored(secret), secret);
  });

  it('runs as a non-root user in the final stage', () => {
    const users = all('USER', final());
    assert.ok(users.length > 0, 'USER in the final stage');
    const user = users.at(-1)!.args.split(':')[0]!;
    assert.ok(!['root', '0'].includes(user), `USER ${user} is not root`);
  });

  it('has the `eligibility` bin as its entrypoint, so the command chooses the role', async () => {
    const entrypoint = all('ENTRYPOINT', final()).at(-1);
    assert.ok(entrypoint, 'ENTRYPOINT');
    const argv = JSON.parse(entrypoint.args) as string[];
    const pkg = JSON.parse(await readText('package.json')) as { bin: Record<string, string> };
    const bin = path.posix.normalize(pkg.bin.eligibility!);
    assert.equal(argv[0], 'node');
    assert.ok(argv[1]?.endsWith(`/${bin}`), `${argv.join(' ')} runs ${bin}`);
    const workdir = all('WORKDIR', final()).at(-1)?.args;
    assert.equal(argv[1], path.posix.join(workdir ?? '/', bin));
  });

  it('contains every file the bin loads at run time, and npm ci --omit=dev installs every package they import', async () => {
    // Paths of the context copied to the same path under WORKDIR (`COPY src ./src`, `COPY a b ./`).
    const inImage = all('COPY', final())
      .map((i) => copyOf(i.args))
      .filter((c) => c.flags.from === undefined)
      .flatMap((c) =>
        c.sources.filter((source) => ['.', './'].includes(c.dest) || path.posix.normalize(c.dest) === source),
      );
    assert.ok(inImage.includes('bin'));
    // The worker bundles workflows/index.ts at start (workers/create-worker.ts), besides what the CLI imports.
    const { files, packages } = runtimeGraph([
      path.join(root, 'bin/eligibility.js'),
      path.join(root, 'workflows/index.ts'),
    ]);
    assert.ok(files.size > 50, `walked ${files.size} files`);
    for (const file of files) {
      const relative = path.relative(root, file);
      assert.ok(
        inImage.some((source) => relative === source || relative.startsWith(`${source}/`)),
        `${relative} is loaded at run time but not copied into the image`,
      );
    }
    // What `npm ci --omit=dev` installs: the lockfile's top-level packages not marked dev-only.
    const lock = JSON.parse(await readText('package-lock.json')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const missing = [...packages].filter((p) => {
      const entry = lock.packages[`node_modules/${p}`];
      return entry === undefined || entry.dev === true;
    });
    assert.deepEqual(missing, [], 'imported at run time but not installed by npm ci --omit=dev');
  });
});
