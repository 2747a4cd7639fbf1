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

/**
 * What is wrong with the page's layout at the viewport's width: a sideways scroll, a control out of reach (one in a box
 * that scrolls on its own is off-screen too: the page does not scroll, the person must). Source text, evaluated in the
 * page as written (tsx would wrap named functions in a helper the page does not have).
 */
const LAYOUT_PROBLEMS = `(() => {
  const limit = window.innerWidth;
  const problems = [];
  const width = document.documentElement.scrollWidth;
  const describe = (e) =>
    e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).replace(/ /g, '.') : '') +
    ' "' + (e.textContent || '').trim().slice(0, 24) + '" (' + Math.round(e.getBoundingClientRect().right) + ' px)';
  if (width > limit) {
    const wide = Array.from(document.querySelectorAll('body *'))
      .filter((e) => e.getBoundingClientRect().right > limit + 1)
      .slice(0, 4);
    problems.push('scrolls sideways (' + width + ' px): ' + wide.map(describe).join(', '));
  }
  const out = Array.from(document.querySelectorAll('main a, main button, main input, main select, main textarea'))
    .filter((e) => e.getClientRects().length > 0 && !e.closest('.visually-hidden, .skip'))
    .filter((e) => e.getBoundingClientRect().right > limit + 1);
  if (out.length) problems.push('controls off-screen: ' + out.slice(0, 4).map(describe).join(', '));
  return problems;
})()`;

/** The page's layout problems at its viewport's width (none is the rule for every console page at 390 px). */
export const layoutProblems = (page: Page): Promise<string[]> => page.evaluate(LAYOUT_PROBLEMS);

/** Signs in on the sign-in form `url` shows a signed-out visitor, and waits to land back on `url`'s path. */
export async function signInAt(page: Page, url: string, who: { name: string; password: string }): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Operator name').fill(who.name);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(new RegExp(`${new URL(url).pathname}$`));
}
