import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { DEV_STACK_ROLES, requiredIn, ROLES, variables, type Role } from '../src/config.js';
import { sandboxRequiredInDeployment, sandboxVariables, type SandboxVariable } from '../sandbox/config.js';

// The configuration reference pages, generated from the variable tables: docs/operating/configuration.md whole, and
// the variables section of docs/integrating/sandbox.md. `npm run docs:config` writes them and
// test/foundation/config-docs.test.ts fails when a committed page differs from what this module makes.

export const CONFIGURATION_PAGE = new URL('../docs/operating/configuration.md', import.meta.url);
export const SANDBOX_PAGE = new URL('../docs/integrating/sandbox.md', import.meta.url);
export const SANDBOX_START = '<!-- variables:start -->';
export const SANDBOX_END = '<!-- variables:end -->';

type Spec = Pick<SandboxVariable, 'default' | 'description' | 'secret'> & { roles?: readonly Role[] };

const TITLES: Record<Role, string> = {
  worker: 'Worker: `eligibility worker`',
  intake: 'Intake API: `eligibility intake`',
  console: 'Operator console: `eligibility console`',
  receiver: 'Webhook receiver: `eligibility receiver`',
  'codec-server': 'Codec server: `eligibility codec-server`',
  cli: 'The CLI’s client commands: `eligibility start`, `status`, `setup`, `deploy`, …',
  dev: 'Dev stack: `eligibility dev` (`npm start`)',
};

const code = (name: string) => `\`${name}\``;
const shownDefault = (spec: Spec) =>
  spec.default === undefined ? '(unset)' : spec.secret ? '(a local default)' : code(spec.default);
const table = (header: string[], rows: string[][]) =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

/** Every role but the dev stack, which reads what it runs: a variable of them all is shown as `all`. */
const EVERY_ROLE = ROLES.filter((role) => role !== 'dev');
function rolesCell(roles: readonly Role[]): string {
  return EVERY_ROLE.every((role) => roles.includes(role)) ? 'all' : roles.join(', ');
}

/** What every role must set (where Temporal is, the payload keys): said once, before each role's own. */
function commonRequired(): string[] {
  return requiredIn('worker').filter((name) => EVERY_ROLE.every((role) => requiredIn(role).includes(name)));
}

function requiredTable(names: readonly string[]): string {
  return table(
    ['variable', 'meaning'],
    names.map((name) => [code(name), variables[name as keyof typeof variables].description]),
  );
}

function roleSection(role: Role): string {
  if (role === 'dev') {
    const own = Object.entries(variables)
      .filter(([, spec]) => spec.roles.includes('dev'))
      .map(([name]) => code(name));
    return [
      `### ${TITLES.dev}`,
      `Nothing: it runs on the defaults. It runs the ${DEV_STACK_ROLES.join(', ')} and the sandbox in one process and ` +
        `reads their variables, with its own: ${own.join(', ')}.`,
    ].join('\n\n');
  }
  const common = commonRequired();
  const own = requiredIn(role).filter((name) => !common.includes(name));
  return [`### ${TITLES[role]}`, own.length > 0 ? requiredTable(own) : 'Those of every role only.'].join('\n\n');
}

/** docs/operating/configuration.md, before formatting. */
export function configurationMarkdown(): string {
  const intro = [
    'Every setting is an environment variable. A process reads the variables of its role only (the `roles` column',
    'below), once, when it starts: an invalid value stops the processes that read it and no other, and a variable of',
    'another role is left unread whatever its value. The defaults run everything locally against the sandbox, whose',
    'own variables are on [its page](../integrating/sandbox.md#configuration). `PATH`, `HOME` and `XDG_CONFIG_HOME` are',
    "the operating system's, used as they are to find the Temporal CLI and Temporal's config file. This page is",
    'generated from `src/config-variables.ts` by `npm run docs:config`.',
  ].join('\n');
  const mustSet = [
    'A deployment sets these for each process: their defaults suit one machine only (127.0.0.1 binds and addresses,',
    "the sandbox's credentials) or they have none. `docker-compose.yml` sets them for its services.",
  ].join('\n');
  const reference = table(
    ['variable', 'roles', 'default', 'meaning'],
    Object.entries(variables).map(([name, spec]) => [
      code(name),
      rolesCell(spec.roles),
      shownDefault(spec),
      spec.description,
    ]),
  );
  return [
    '# Configuration',
    intro,
    '## What each role must set',
    mustSet,
    '### Every role but the dev stack',
    requiredTable(commonRequired()),
    ...ROLES.map(roleSection),
    '## Reference',
    reference,
  ].join('\n\n');
}

/** The variables section of docs/integrating/sandbox.md (between its markers), before formatting. */
export function sandboxVariablesMarkdown(): string {
  const rows = Object.entries(sandboxVariables).map(([name, spec]: [string, Spec]) => [
    code(name),
    shownDefault(spec),
    spec.description,
  ]);
  const required = sandboxRequiredInDeployment().map(code).join(', ');
  return [
    table(['variable', 'default', 'meaning'], rows),
    `A sandbox deployed apart (docker-compose's \`--profile sandbox\`) sets ${required}.`,
  ].join('\n\n');
}

async function formatted(markdown: string, page: URL): Promise<string> {
  const options = await resolveConfig(fileURLToPath(page));
  return format(markdown, { ...options, parser: 'markdown' });
}

/** The configuration page as `npm run docs:config` writes it. */
export function configurationPage(): Promise<string> {
  return formatted(`${configurationMarkdown()}\n`, CONFIGURATION_PAGE);
}

/** The sandbox page `current` with its variables section as `npm run docs:config` writes it. */
export function sandboxPage(current: string): Promise<string> {
  const [start, end] = [current.indexOf(SANDBOX_START), current.indexOf(SANDBOX_END)];
  if (start < 0 || end < start)
    throw new Error(`${fileURLToPath(SANDBOX_PAGE)} has no ${SANDBOX_START} … ${SANDBOX_END}`);
  const block = `${SANDBOX_START}\n\n${sandboxVariablesMarkdown()}\n\n${SANDBOX_END}`;
  return formatted(current.slice(0, start) + block + current.slice(end + SANDBOX_END.length), SANDBOX_PAGE);
}
