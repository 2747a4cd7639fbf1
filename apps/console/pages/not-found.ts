import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendPage } from '../deps.js';
import { html } from '../views/html.js';

export function notFoundPage(request: FastifyRequest, reply: FastifyReply, message: string): FastifyReply {
  return sendPage(request, reply, { title: 'Not found' }, () => html`<p>${message}</p>`, 404);
}
