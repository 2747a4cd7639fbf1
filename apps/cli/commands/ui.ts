import type { Command } from 'commander';
import { findView, UI_VIEWS, UiViewError, viewQuery, workflowListUrl } from '../../../src/temporal/ui-views.js';
import { CliError, type CliContext } from '../context.js';

const viewList = UI_VIEWS.map(
  (v) =>
    `  ${`${v.name}${v.arg ? (v.arg.required ? ` <${v.arg.name}>` : ` [${v.arg.name}]`) : ''}`.padEnd(26)}${v.description}`,
).join('\n');

export function registerUi(program: Command, ctx: CliContext): void {
  program
    .command('ui')
    .description('print the Temporal UI address of a list people need, its visibility query filled in')
    .argument('<view>', `one of ${UI_VIEWS.map((v) => v.name).join(', ')}`)
    .argument('[arg]', 'the identifier the view takes (a payer id, batch id or tenant); never a patient value')
    .option('--query', 'print only the visibility query (for `temporal workflow list --query` or the UI search box)')
    .addHelpText(
      'after',
      `
Views:
${viewList}

The address is under TEMPORAL_UI_URL (default: the dev server's UI on TEMPORAL_UI_PORT), in TEMPORAL_NAMESPACE.
Nothing connects to Temporal.

Examples:
  $ eligibility ui awaiting-input
  $ eligibility ui failed 60054
  $ eligibility ui batch b-2024-06-01 --query`,
    )
    .action((name: string, arg: string | undefined, options: { query?: boolean }) => {
      let query: string;
      try {
        query = viewQuery(findView(name), arg);
      } catch (err) {
        if (err instanceof UiViewError) throw new CliError(err.message);
        throw err;
      }
      const { temporal } = ctx.config();
      console.log(options.query ? query : workflowListUrl(temporal.uiUrl, temporal.namespace, query));
    });
}
