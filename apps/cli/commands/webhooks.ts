import type { Command } from 'commander';
import { SANDBOX_EVENT_NAMES, WebhookCreateRequest } from '../../../src/contract/index.js';
import { CliError, positiveInt, withClient, type CliContext } from '../context.js';
import { commaList } from '../option-parsers.js';

export function registerWebhooks(program: Command, ctx: CliContext): void {
  const webhooks = program.command('webhooks').description("manage this system's webhook endpoint at the service");
  webhooks
    .command('register')
    .description('register a webhook endpoint and subscribe its events, once (re-running changes nothing)')
    .argument('<url>', 'where the service delivers events, e.g. http://127.0.0.1:4020/webhooks/eligibility')
    .option('--events <a,b>', 'events to subscribe', commaList, [...SANDBOX_EVENT_NAMES])
    .option('--wait-seconds <n>', 'how long to wait for the setup workflow', positiveInt, 60)
    .addHelpText(
      'after',
      `
Runs webhookSetupWorkflow (workflow id webhook-setup-<url>) on the task queue, which needs a running worker. The
previous completed setup of the same url is reused, so only events not yet subscribed are added.

Examples:
  $ eligibility webhooks register http://127.0.0.1:4020/webhooks/eligibility
  $ eligibility webhooks register https://example.org/hooks --events sandbox.discovery.updated`,
    )
    .action(async (url: string, options: { events: string[]; waitSeconds: number }) => {
      if (!WebhookCreateRequest.safeParse({ url }).success) throw new CliError(`url: expected an http(s) URL`);
      if (options.events.length === 0) throw new CliError('--events: expected at least one event name');
      const { registerWebhook } = await import('../../../src/temporal/register-webhook.js');
      const { webhookSetupWorkflowId } = await import('../../../workflows/shared/ids.js');
      const { temporalFailureReason } = await import('../../../src/temporal/errors.js');
      await withClient(ctx, async (client, config) => {
        const deadline = Date.now() + options.waitSeconds * 1000;
        const result = await client
          .withDeadline(deadline, () =>
            registerWebhook(client, { url, events: options.events, taskQueue: config.temporal.taskQueue }),
          )
          .catch((err: unknown) => {
            if (temporalFailureReason(err) !== 'no-answer') throw err;
            throw new CliError(
              `${webhookSetupWorkflowId(url)} has not finished after ${options.waitSeconds} s: is a worker polling ` +
                `task queue ${config.temporal.taskQueue}? It keeps running; run this command again to wait for it`,
            );
          });
        const change = result.registered
          ? 'registered now'
          : result.subscribed.length > 0
            ? 'registered before'
            : 'registered before; nothing changed';
        const subscribed = result.subscribed.length > 0 ? `; subscribed now: ${result.subscribed.join(', ')}` : '';
        console.log(`${result.endpointId} ${result.url} (${change}${subscribed})`);
        console.log(`events: ${result.events.join(', ')}`);
      });
    });
}
