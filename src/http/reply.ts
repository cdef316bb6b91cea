import type { FastifyReply } from 'fastify';
import { jsonBody } from '../json/index.js';

/** Writes a JSON body with bigint-exact numbers (snapshot ids, sequence numbers), embedded RawJson as it is held (json/stringify jsonParts). */
export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json').send(jsonBody(body));
}
