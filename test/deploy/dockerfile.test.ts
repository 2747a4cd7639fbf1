import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readText } from './compose-file.js';
import { copyOf, dockerignore, parseDockerfile, root, runtimeGraph, type Stage } from './image-files.js';

// Docker cannot run here (no engine, no buildx), so the image is checked statically: the Dockerfile's shape, that
// what it copies exists and reaches the build context, that the build stage has every source the compiled code comes
// from, and that every package that code imports is installed by `npm ci --omit=dev`. lab/system/compiled-copy.test.ts runs that compiled
// code without the dev dependencies.

describe('Dockerfile', () => {
  let stages: Stage[];
  let globalArgs: Record<string, string>;
  let ignored: (file: string) => boolean;

  before(async () => {
    ({ stages, globalArgs } = parseDockerfile(await readText('Dockerfile')));
    ignored = dockerignore(await readText('.dockerignore'));
  });

  const final = () => stages.at(-1)!;
  /** Paths of the context a stage copies to the same path under WORKDIR (`COPY src ./src`, `COPY a b ./`). */
  const copiedToSamePath = (stage: Stage) =>
    all('COPY', stage)
      .map((i) => copyOf(i.args))
      .filter((c) => c.flags.from === undefined)
      .flatMap((c) =>
        c.sources.filter((source) => ['.', './'].includes(c.dest) || path.posix.normalize(c.dest) === source),
      );
  const all = (keyword: string, stage?: Stage) =>
    (stage ? [stage] : stages).flatMap((s) => s.instructions.filter((i) => i.keyword === keyword));

  it('is multi-stage, on a pinned base, installing production dependencies only from the lockfile', () => {
    assert.ok(stages.length >= 2, 'a dependency stage and a runtime stage');
    const install = all('RUN').find((i) => /\bnpm ci\b.*--omit=dev/.test(i.args));
    assert.ok(install, 'npm ci --omit=dev');
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

  it('builds dist/ in a build stage that has every source file the command and the workflows load', () => {
    const build = stages.find((s) => all('RUN', s).some((i) => /\bnpm run build\b/.test(i.args)));
    assert.ok(build?.name, 'a named stage runs npm run build');
    assert.ok(
      all('RUN', build).some((i) => /\bnpm ci\b/.test(i.args) && !/--omit=dev/.test(i.args)),
      'the build stage installs the dev dependencies (esbuild, tsx)',
    );
    const copied = copiedToSamePath(build);
    for (const needed of ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts']) {
      assert.ok(copied.includes(needed), `${needed} in the build stage`);
    }
    const { files } = runtimeGraph([path.join(root, 'apps/cli/main.ts'), path.join(root, 'workflows/index.ts')]);
    assert.ok(files.size > 50, `walked ${files.size} files`);
    for (const file of files) {
      const relative = path.relative(root, file);
      assert.ok(
        copied.some((source) => relative === source || relative.startsWith(`${source}/`)),
        `${relative} is compiled or bundled but not copied into the build stage`,
      );
    }
    // The runtime stage takes the build's output, not the sources.
    const fromBuild = all('COPY', final())
      .map((i) => copyOf(i.args))
      .filter((c) => c.flags.from === build.name);
    assert.deepEqual(
      fromBuild.flatMap((c) => c.sources),
      ['/app/dist'],
    );
    for (const needed of ['bin', 'package.json', 'deploy/temporal']) {
      assert.ok(copiedToSamePath(final()).includes(needed), `${needed} in the runtime stage`);
    }
    for (const source of ['src', 'workflows', 'activities', 'workers', 'apps', 'sandbox', 'scripts']) {
      assert.ok(!copiedToSamePath(final()).includes(source), `${source}: sources stay out of the runtime stage`);
    }
  });

  it('installs with npm ci --omit=dev every package the compiled code imports', async () => {
    const { packages } = runtimeGraph([path.join(root, 'apps/cli/main.ts'), path.join(root, 'workflows/index.ts')]);
    // `eligibility dev` is a development role (npm start from a clone, which has the dev dependencies): only when the
    // Temporal CLI is nowhere to be found does it import @temporalio/testing, for the SDK's download of it.
    const developmentOnly = ['@temporalio/testing'];
    const lock = JSON.parse(await readText('package-lock.json')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const missing = [...packages].filter((p) => {
      const entry = lock.packages[`node_modules/${p}`];
      return !developmentOnly.includes(p) && (entry === undefined || entry.dev === true);
    });
    assert.deepEqual(missing, [], 'imported at run time but not installed by npm ci --omit=dev');
    for (const p of ['tsx', '@temporalio/testing', 'esbuild']) {
      assert.equal(lock.packages[`node_modules/${p}`]?.dev, true, `${p} is a dev dependency`);
    }
  });
});
