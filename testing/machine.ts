import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

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
const execFileAsync = promisify(execFile);

const onPath = (command: string) =>
  execFileAsync('sh', ['-c', `command -v ${command}`]).then(
    () => true,
    () => false,
  );

const REQUIREMENTS: Requirement[] = [
  {
    name: 'PostgreSQL',
    part: 'database',
    found: async () =>
      (await execFileAsync('sh', ['-c', 'ls /usr/lib/postgresql/*/bin/postgres']).catch(() => null)) !== null,
    script: 'scripts/ensure-postgres.sh',
    howToInstall:
      'apt-get install postgresql (Debian, Ubuntu), or set ELIGIBILITY_TEST_DATABASE_URL to a database of yours',
  },
  {
    name: 'Chromium',
    part: 'browser',
    found: () => Promise.resolve(['/usr/bin/chromium', '/usr/bin/chromium-browser'].some((p) => existsSync(p))),
    script: 'scripts/ensure-chromium.sh',
    howToInstall: 'apt-get install chromium (Debian, Ubuntu)',
  },
];

export class MachineSetupError extends Error {
  override name = 'MachineSetupError';
}

async function canInstall(): Promise<boolean> {
  return process.getuid?.() === 0 && (await onPath('apt-get'));
}

function runScript(script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [script], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new MachineSetupError(`${script} failed (${code}): ${stderr.trim()}`)),
    );
  });
}

/** In the main process, before anything starts: installs what is missing, or stops the run saying what to install. */
export async function ensureMachine(needs: { database: boolean; browser: boolean }): Promise<void> {
  for (const requirement of REQUIREMENTS) {
    if (!needs[requirement.part]) continue;
    if (await requirement.found()) continue;
    if (!(await canInstall())) {
      throw new MachineSetupError(`npm test needs ${requirement.name}: ${requirement.howToInstall}`);
    }
    console.log(`  (${requirement.name} is missing: installing it with ${requirement.script}, once, about a minute)`);
    await runScript(requirement.script);
  }
}
