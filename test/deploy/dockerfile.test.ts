import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readText } from './compose-file.js';
import { copyOf, dockerignore, parseDockerfile, root, runtimeGraph, type Stage } from './image-files.js';

// Docker cannot run here (no engine, no buildx), so the image is checked statically: the Dockerfile's shape, that
// what it copies exists and reaches the build context, and that everything the `eligibility` bin loads at run time is
// inside what it copies and installed by `npm ci --omit=dev`.

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
    // The image bundles workflows/index.ts when it is built (workers/build-workflow-bundle.ts), besides what the CLI
    // imports.
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
