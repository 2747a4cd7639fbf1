export { createWebhookReceiver, RECEIVER_IDENTITY, WEBHOOK_PATH, type WebhookReceiverOptions } from './receiver.js';
export { resolveWebhookAuth } from './auth.js';
