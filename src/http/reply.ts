import type { FastifyReply } from 'fastify';
import { stringifyJson } from '../json/index.js';

/** Writes a JSON body with bigint-exact numbers (snapshot ids, sequence numbers). */
export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json').send(stringifyJson(body));
}
