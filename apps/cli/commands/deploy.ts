import { InvalidArgumentError, type Command } from 'commander';
import { CliError, withClient, type CliContext } from '../context.js';
import { fields, table } from '../../../src/text-format.js';

const percentage = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 100)
    throw new InvalidArgumentError('expected a whole number from 0 to 100.');
  return n;
};

export function registerDeploy(program: Command, ctx: CliContext): void {
  const deploy = program
    .command('deploy')
    .description('ship a new worker version: see which versions run, ramp one, promote it, roll back')
    .option('--deployment <name>', 'the Worker Deployment (default: WORKER_DEPLOYMENT_NAME)')
    .addHelpText(
      'after',
      `
Each build of the worker is a version of its Worker Deployment, named by its workflow bundle's hash (the worker
prints it when it starts). A workflow runs entirely on the version it started on; new workflows start on the
current version, or on a ramping one for the share it is given. A version still holding workflows is "draining";
once it runs no workflow, its workers can stop. See docs/operating/deploying-changes.md.

Examples:
  $ eligibility deploy status
  $ eligibility deploy ramp b-3f2a9c0d1e4b 10
  $ eligibility deploy promote b-3f2a9c0d1e4b
  $ eligibility deploy rollback`,
    );
  const deploymentOf = (name: string | undefined, configured: string | undefined) => {
    const deployment = name ?? configured;
    if (!deployment) throw new CliError('--deployment: no deployment named (set WORKER_DEPLOYMENT_NAME or pass it)');
    return deployment;
  };

  deploy
    .command('status')
    .description("the deployment's current and ramping versions, and every version's state")
    .option('--json', 'print it as JSON')
    .action(async (options: { json?: boolean }) => {
      const { deploymentStatus } = await import('../../../src/temporal/deployments.js');
      await withClient(ctx, async (client, config) => {
        const name = deploymentOf(deploy.opts<{ deployment?: string }>().deployment, config.worker.deployment?.name);
        const view = await deploymentStatus(client, name);
        if (!view) throw new CliError(`no deployment ${name}: no worker of it has polled yet`);
        if (options.json) return console.log(JSON.stringify(view, null, 2));
        console.log(
          fields([
            ['deployment', view.name],
            ['current', view.current ?? '(none: unversioned workers take new workflows)'],
            ['ramping', view.ramping && `${view.ramping.buildId} (${view.ramping.percentage}% of new workflows)`],
          ]),
        );
        console.log();
        console.log(
          table(
            ['version', 'state', 'created'],
            view.versions.map((v) => [v.buildId, v.state, v.createdAt]),
          ),
        );
      });
    });

  deploy
    .command('ramp')
    .description('send a share of new workflows to a version (0 stops the ramp)')
    .argument('<buildId>', 'the version to ramp')
    .argument('<percent>', 'the share of new workflows, 0 to 100', percentage)
    .action(async (buildId: string, percent: number) => {
      const { setRampingVersion } = await import('../../../src/temporal/deployments.js');
      await withClient(ctx, async (client, config) => {
        const name = deploymentOf(deploy.opts<{ deployment?: string }>().deployment, config.worker.deployment?.name);
        await setRampingVersion(client, name, percent === 0 ? undefined : buildId, percent, ctx.identity());
        console.log(percent === 0 ? `${name}: ramp stopped` : `${name}: ${buildId} takes ${percent}% of new workflows`);
      });
    });

  deploy
    .command('promote')
    .description('make a version current: every new workflow starts on it')
    .argument('<buildId>', 'the version to promote')
    .action(async (buildId: string) => {
      const { setCurrentVersion } = await import('../../../src/temporal/deployments.js');
      await withClient(ctx, async (client, config) => {
        const name = deploymentOf(deploy.opts<{ deployment?: string }>().deployment, config.worker.deployment?.name);
        await setCurrentVersion(client, name, buildId, ctx.identity());
        console.log(`${name}: ${buildId} is current; workflows pinned to other versions finish there`);
      });
    });

  deploy
    .command('rollback')
    .description('make the previous version current again (the newest one older than the current)')
    .action(async () => {
      const { describeDeployment, setCurrentVersion } = await import('../../../src/temporal/deployments.js');
      await withClient(ctx, async (client, config) => {
        const name = deploymentOf(deploy.opts<{ deployment?: string }>().deployment, config.worker.deployment?.name);
        const view = await describeDeployment(client, name);
        const at = view?.versions.findIndex((v) => v.buildId === view.current) ?? -1;
        const previous = at >= 0 ? view?.versions[at + 1] : undefined;
        if (!view?.current || !previous) throw new CliError(`${name}: no version older than the current one`);
        await setCurrentVersion(client, name, previous.buildId, ctx.identity());
        console.log(`${name}: ${previous.buildId} is current again (was ${view.current})`);
      });
    });
}
