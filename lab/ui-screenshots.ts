/**
 * Screenshots of Temporal UI in headless Chromium (Debian's `chromium` package), for a person to check what the UI
 * shows of the project's workflows: the workflow list with a view applied, and one workflow's page (summary, details,
 * current details, named events), decrypted through the codec server `eligibility dev` sets up. Not part of `npm test`.
 *
 *   npx tsx lab/ui-screenshots.ts --workflow verification-example-009 [--view awaiting-input [--arg id]]
 *     [--tab history --tab user-metadata] [--out /tmp/tui-shots] [--chromium /usr/bin/chromium] [--height 1900]
 *
 * Run it with the environment of the running stack (TEMPORAL_ADDRESS, TEMPORAL_UI_PORT or TEMPORAL_UI_URL, …).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { createDataConverter } from '../src/codec/data-converter.js';
import { loadConfig } from '../src/config.js';
import { connectClient } from '../src/temporal/client.js';
import { findView, viewQuery, workflowListUrl } from '../src/temporal/ui-views.js';

const { values } = parseArgs({
  options: {
    workflow: { type: 'string' },
    view: { type: 'string', default: 'awaiting-input' },
    arg: { type: 'string' },
    out: { type: 'string', default: '/tmp/tui-shots' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    tab: { type: 'string', multiple: true, default: ['history', 'user-metadata'] },
    // Tall enough for the event list under the timeline: the UI scrolls inside its own panes, not the page.
    height: { type: 'string', default: '1900' },
    // Search attributes to show as list columns (Temporal UI keeps a person's columns in the browser; a fresh one
    // shows ids and types only).
    columns: { type: 'string', default: 'VerificationStage,PayerId,SpecialtyCode' },
  },
});

async function shoot(page: Page, url: string, file: string, waitFor: string) {
  // A running workflow's page keeps polling, so the network never goes idle: wait for its content instead.
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.getByText(waitFor).first().waitFor({ timeout: 30_000 });
  // The UI decrypts through the codec server after the first paint; give those calls a moment to land.
  await page.waitForTimeout(3000);
  await page.screenshot({ path: file, fullPage: true });
  console.log(file);
}

/** Adds search attributes as columns of the workflow list, as a person does once in the table's configuration. */
async function addColumns(page: Page, names: string[]) {
  if (names.length === 0) return;
  await page.getByTestId('workflows-summary-table-configuration-button').click();
  // The run id says nothing to a person and pushes the business columns out of sight.
  await page.getByRole('button', { name: 'Remove Run ID column', exact: true }).click();
  for (const name of names) await page.getByRole('button', { name: `Add ${name} column`, exact: true }).click();
  await page.keyboard.press('Escape');
  await page.waitForTimeout(500);
}

async function run() {
  if (!values.workflow) throw new Error('--workflow <workflowId> is required');
  const config = loadConfig('cli');
  const { uiUrl, namespace } = config.temporal;
  const temporal = await connectClient(config.temporal, { dataConverter: await createDataConverter(config.codec) });
  const browser = await chromium.launch({ executablePath: values.chromium, args: ['--no-sandbox'] });
  try {
    const { runId } = await temporal.client.workflow.getHandle(values.workflow).describe();
    await fs.mkdir(values.out, { recursive: true });
    const page = await browser.newPage({ viewport: { width: 1600, height: Number(values.height) } });
    // `--view ''` skips the list, for a workflow no view lists (e.g. one awaiting its discovery).
    if (values.view) {
      const list = workflowListUrl(uiUrl, namespace, viewQuery(findView(values.view), values.arg));
      await page.setViewportSize({ width: 1900, height: 900 });
      await page.goto(list, { waitUntil: 'domcontentloaded' });
      await page.getByText(values.workflow).first().waitFor({ timeout: 30_000 });
      await addColumns(page, values.columns.split(',').filter(Boolean));
      await shoot(page, list, path.join(values.out, `list-${values.view}.png`), values.workflow);
    }
    await page.setViewportSize({ width: 1600, height: Number(values.height) });
    const base = `${uiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(values.workflow)}`;
    for (const tab of values.tab) {
      await shoot(
        page,
        `${base}/${runId}/${tab}`,
        path.join(values.out, `${values.workflow}-${tab}.png`),
        values.workflow,
      );
    }
  } finally {
    await browser.close();
    await temporal.close();
  }
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
