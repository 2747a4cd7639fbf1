import type { Command } from 'commander';
import { CliError, positiveInt, withClient, type CliContext } from '../context.js';

export function registerSetup(program: Command, ctx: CliContext): void {
  program
    .command('setup')
    .description('make a namespace ready for this project: the namespace, its search attributes; idempotent')
    .option('--retention-days <n>', 'retention of the namespace, when setup creates it', positiveInt, 7)
    .option(
      '--wait-seconds <n>',
      "how long a fresh server's caches may take to know what setup created",
      positiveInt,
      90,
    )
    .addHelpText(
      'after',
      `
Against TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE: creates the namespace when it does not exist, registers every
search attribute the workflows use (workflows/shared/search-attributes.ts) and waits until visibility answers a
query on all of them. Run it once per namespace, before the first worker or start; running it again changes nothing
and says so. The dev server and the tests run the same setup.

Priority lanes and tenant fairness also need server dynamic config, which no API sets: setup prints the lines for
the server's dynamic config file (deploy/temporal/dynamic-config.yaml holds them).

Examples:
  $ TEMPORAL_ADDRESS=temporal.internal:7233 TEMPORAL_NAMESPACE=eligibility eligibility setup`,
    )
    .action(async (options: { retentionDays: number; waitSeconds: number }) => {
      const { setUpNamespace } = await import('../../../src/temporal/namespace-setup.js');
      const { dynamicConfigFile } = await import('../../dev/temporal-release.js');
      const { readFile } = await import('node:fs/promises');
      await withClient(ctx, async (client, config) => {
        const namespace = config.temporal.namespace;
        const report = await setUpNamespace(client.connection, namespace, {
          retentionDays: options.retentionDays,
          timeoutMs: options.waitSeconds * 1000,
        });
        for (const { name, registered, wanted } of report.conflicts) {
          console.error(`search attribute ${name} is registered as ${registered}; this project needs ${wanted}`);
        }
        if (report.conflicts.length > 0) {
          throw new CliError(
            `namespace ${namespace}: ${report.conflicts.length} search attribute(s) of another type; a type cannot ` +
              'be changed in place (remove them with `temporal operator search-attribute remove`, then run setup again)',
          );
        }
        const changed = report.createdNamespace || report.added.length > 0;
        if (report.createdNamespace)
          console.log(`namespace ${namespace}: created (retention ${options.retentionDays} days)`);
        if (report.added.length > 0) console.log(`search attributes added: ${report.added.join(', ')}`);
        if (!changed) {
          console.log(
            `namespace ${namespace}: nothing to do (its ${report.present.length} search attributes are registered)`,
          );
          console.log('(priority and fairness also need server dynamic config, which no API sets: see --help)');
          return;
        }
        console.log(`namespace ${namespace}: ready (${report.present.length + report.added.length} search attributes)`);
        console.log(
          "\nNot set by setup (no API sets a server's dynamic config): priority lanes and tenant fairness need these " +
            "lines in the server's dynamic config file; servers started by this project have them already:\n",
        );
        console.log((await readFile(dynamicConfigFile, 'utf8')).trim());
      });
    });
}
