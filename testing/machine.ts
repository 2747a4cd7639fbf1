import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { outputTail } from '../apps/dev/output-tail.js';
import { postgresBin } from './postgres.js';

/**
 * What `npm test` needs from the machine beyond node_modules: PostgreSQL (the tests' database, as production's) and
 * Chromium (the console's browser tests). Each is found where Debian puts it; a missing one is installed with the
 * project's script when this runs as root with apt-get (as CI does), saying so in one line, and otherwise the run
 * stops with one line saying what to install.
 */
interface Requirement {
  name: string;
  part: 'database' | 'browser';
  found: () => Promise<boolean>;
  script: string;
  howToInstall: string;
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Where Debian's package puts Chromium. */
export const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
export const chromiumPath = () => CHROMIUM_PATHS.find((p) => existsSync(p));

const REQUIREMENTS: Requirement[] = [
  {
    name: 'PostgreSQL',
    part: 'database',
    found: () =>
      postgresBin().then(
        () => true,
        () => false,
      ),
    script: 'scripts/ensure-postgres.sh',
    howToInstall:
      'apt-get install postgresql (Debian, Ubuntu), or set ELIGIBILITY_TEST_DATABASE_URL to a database of yours',
  },
  {
    name: 'Chromium',
    part: 'browser',
    found: () => Promise.resolve(chromiumPath() !== undefined),
    script: 'scripts/ensure-chromium.sh',
    howToInstall: 'apt-get install chromium (Debian, Ubuntu)',
  },
];

export class MachineSetupError extends Error {
  override name = 'MachineSetupError';
}

async function canInstall(): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  return promisify(execFile)('sh', ['-c', 'command -v apt-get']).then(
    () => true,
    () => false,
  );
}

function runScript(script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail = outputTail(child);
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new MachineSetupError(`${script} failed (${code}): ${tail()}`)),
    );
  });
}

/** In the main process, before anything starts: installs what is missing, or stops the run saying what to install. */
export async function ensureMachine(needs: { database: boolean; browser: boolean }): Promise<void> {
  for (const requirement of REQUIREMENTS) {
    if (!needs[requirement.part] || (await requirement.found())) continue;
    if (!(await canInstall())) {
      throw new MachineSetupError(`npm test needs ${requirement.name}: ${requirement.howToInstall}`);
    }
    console.log(`  (${requirement.name} is missing: installing it with ${requirement.script}, once, about a minute)`);
    await runScript(requirement.script);
  }
}
