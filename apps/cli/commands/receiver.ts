import type { Command } from 'commander';
import { untilInterrupted, type CliContext } from '../context.js';

export function registerReceiver(program: Command, ctx: CliContext): void {
  program
    .command('receiver')
    .description("serve the receiver of the service's webhook deliveries until Ctrl-C or SIGTERM")
    .addHelpText(
      'after',
      `
Listens on WEBHOOK_HOST:WEBHOOK_PORT (default 127.0.0.1:4020) at /webhooks/eligibility and signals workflows on
TEMPORAL_ADDRESS. Deliveries must carry the WEBHOOK_SIGNING_SECRET signature or the WEBHOOK_BASIC_AUTH credentials;
with neither set it refuses to start (WEBHOOK_AUTH_DISABLED=true is for local use only).

Example:
  $ WEBHOOK_HOST=0.0.0.0 WEBHOOK_SIGNING_SECRET=… eligibility receiver`,
    )
    .action(async () => {
      const signal = untilInterrupted();
      // Imported here so the other commands do not load the HTTP server and the Temporal client.
      const { serveHttp } = await import('../serve-http.js');
      const { createWebhookReceiver, WEBHOOK_PATH } = await import('../../receiver/index.js');
      const config = ctx.config('receiver');
      await serveHttp(config, {
        what: 'Webhook receiver',
        role: 'receiver',
        host: config.webhook.host,
        port: config.webhook.port,
        path: WEBHOOK_PATH,
        signal,
        create: (client, logger) =>
          createWebhookReceiver({
            config,
            client,
            taskQueue: config.temporal.taskQueue,
            logger,
            readyTimeoutMs: config.observability.readyTimeoutMs,
          }),
      });
    });
}
