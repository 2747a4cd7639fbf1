export { createWebhookReceiver, WEBHOOK_PATH, type WebhookReceiverOptions } from './receiver.js';
export { resolveWebhookAuth } from './auth.js';
