import { html, type Html } from './html.js';

/** A verification's id, linking to its page. */
export const verificationLink = (workflowId: string): Html =>
  html`<a href="/verifications/${encodeURIComponent(workflowId)}">${workflowId}</a>`;

/** A batch's id, linking to its page. */
export const batchLink = (batchId: string): Html =>
  html`<a href="/batches/${encodeURIComponent(batchId)}">${batchId}</a>`;
