import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import {
  CONFIGURATION_PAGE,
  configurationPage,
  SANDBOX_END,
  SANDBOX_PAGE,
  SANDBOX_START,
  sandboxPage,
} from '../../scripts/config-pages.js';
import { requiredIn, ROLES, variables } from '../../src/config.js';
import { sandboxVariables } from '../../sandbox/config.js';

const names = (markdown: string) => new Set([...markdown.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((m) => m[1]!));

describe('the configuration reference (docs/operating/configuration.md, docs/integrating/sandbox.md)', () => {
  it('is what `npm run docs:config` generates from src/config-variables.ts', async () => {
    const page = await fs.readFile(CONFIGURATION_PAGE, 'utf8');
    assert.equal(page, await configurationPage(), 'run `npm run docs:config`');
  });

  it("holds the sandbox's variables on the sandbox's page, as `npm run docs:config` generates them", async () => {
    const page = await fs.readFile(SANDBOX_PAGE, 'utf8');
    assert.equal(page, await sandboxPage(page), 'run `npm run docs:config`');
    const block = page.slice(page.indexOf(SANDBOX_START), page.indexOf(SANDBOX_END));
    assert.deepEqual(names(block), new Set(Object.keys(sandboxVariables)));
  });

  it("lists every product variable once, and neither the sandbox's nor the operating system's", async () => {
    const page = await fs.readFile(CONFIGURATION_PAGE, 'utf8');
    const reference = page.slice(page.indexOf('## Reference'));
    assert.deepEqual(names(reference), new Set(Object.keys(variables)));
    for (const name of ['PATH', 'HOME', 'XDG_CONFIG_HOME', 'SANDBOX_FAULT_500_RATE']) {
      assert.ok(!(name in variables), `${name} is not in the table`);
      assert.doesNotMatch(page, new RegExp(`^\\| \`${name}\``, 'm'), `${name} is not on the page`);
    }
  });

  it('leads with what each role must set, before the reference', async () => {
    const page = await fs.readFile(CONFIGURATION_PAGE, 'utf8');
    const [lead] = page.split('## Reference');
    for (const role of ROLES) {
      for (const name of requiredIn(role)) assert.match(lead!, new RegExp(`\`${name}\``), `${role} must set ${name}`);
    }
  });
});
