import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_PATHS, chromiumPath } from './machine.js';

/**
 * Chromium from Debian's packages (`scripts/ensure-chromium.sh` installs it): playwright's own browser download
 * cannot work on these machines. A machine without it fails the browser tests loudly, never skips them.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    throw new Error(`no Chromium at ${CHROMIUM_PATHS.join(' or ')}: run scripts/ensure-chromium.sh`);
  }
  // Root (CI containers) cannot use Chromium's user-namespace sandbox.
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  return chromium.launch({ executablePath, args });
}

let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * The page's accessibility violations found by axe-core (WCAG 2.1 A and AA rules). The script is evaluated through
 * the DevTools protocol, so the page's content security policy stays as it is served.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(o: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
}
