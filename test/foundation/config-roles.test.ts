import assert from 'node:assert/strict';
import {
  ConfigError,
  DEV_STACK_ROLES,
  loadConfig,
  ROLES,
  variables,
  variablesOf,
  type Role,
} from '../../src/config.js';
import { loadSandboxConfig, sandboxVariables, type SandboxVariable } from '../../sandbox/config.js';

/** The variables a ConfigError names, or none when `load` succeeds. */
function refused(load: () => unknown): string[] {
  try {
    load();
    return [];
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.problems.map((p) => p.variable);
  }
}

/** A value `schema` refuses, if one of a few kinds of nonsense is: most schemas refuse one of them. */
function badValueOf(spec: { schema: { safeParse(v: unknown): { success: boolean } } }): string | undefined {
  return ['not a number', '-1', '70000', 'x', '{"x":"y"}'].find((value) => !spec.schema.safeParse(value).success);
}

const SERVICES: Role[] = ['worker', 'intake', 'console', 'receiver', 'codec-server'];

describe('configuration by role', () => {
  it("a bad SANDBOX_* value stops no process of the product: the worker's, the services' and the CLI's load", () => {
    const bad = { SANDBOX_FAULT_500_RATE: '2' };
    for (const role of [...SERVICES, 'cli', 'dev'] as const)
      assert.deepEqual(
        refused(() => loadConfig(role, bad)),
        [],
      );
  });

  it('the sandbox refuses a bad SANDBOX_* value, naming the variable and never the value', () => {
    assert.throws(
      () => loadSandboxConfig({ SANDBOX_FAULT_500_RATE: '2', SANDBOX_PORT: 'fourty' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.problems.map((p) => p.variable).join() === 'SANDBOX_PORT,SANDBOX_FAULT_500_RATE' &&
        !err.message.includes('fourty'),
    );
    assert.equal(loadSandboxConfig({}).faults.error500Rate, 0);
  });

  it("a process parses exactly its role's variables: a bad value of any other leaves it running", () => {
    let checked = 0;
    for (const [name, spec] of Object.entries(variables)) {
      const value = badValueOf(spec);
      if (value === undefined) continue;
      for (const role of ROLES) {
        const reads = variablesOf(role).includes(name as keyof typeof variables);
        assert.deepEqual(
          refused(() => loadConfig(role, { [name]: value })),
          reads ? [name] : [],
          `${role}, ${name}`,
        );
      }
      checked++;
    }
    assert.ok(checked > 40, `only ${checked} variables have a value their schema refuses`);
  });

  it('gives every variable a role, and asks a deployment for it only in roles that read it', () => {
    for (const [name, spec] of Object.entries(variables)) {
      assert.ok(spec.roles.length > 0, `${name} has no role`);
      for (const role of spec.required ?? []) assert.ok(spec.roles.includes(role), `${name}: required in ${role}`);
    }
  });

  it('the dev stack reads the variables of every role it runs in its process', () => {
    const dev = new Set(variablesOf('dev'));
    for (const role of DEV_STACK_ROLES) for (const name of variablesOf(role)) assert.ok(dev.has(name), name);
    assert.ok(dev.has('DEV_DATA_DIR'), 'and its own');
    assert.ok(!dev.has('AUDIT_RETENTION_DAYS'), 'but not those of the client commands, which it does not run');
  });

  it("keeps the sandbox's variables out of the product's table, and the sandbox agrees on the spec's open names", () => {
    for (const [name, spec] of Object.entries(sandboxVariables) as [string, SandboxVariable][]) {
      if (!name.startsWith('SANDBOX_')) {
        const product: { default?: string } = variables[name as keyof typeof variables];
        assert.equal(spec.default, product.default, name);
      } else assert.ok(!(name in variables), `${name} is the sandbox's`);
    }
  });
});
