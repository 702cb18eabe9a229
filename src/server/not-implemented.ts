/**
 * Routes of API families that are not built yet answer 501 with an error that
 * names what is missing, rather than a bare 404 that looks like a typo.
 */
import type { FastifyInstance } from 'fastify';

const PENDING: Array<{ family: string; paths: string[] }> = [];

export function registerPendingFamilies(app: FastifyInstance): void {
  for (const { family, paths } of PENDING) {
    for (const url of paths) {
      app.all(url, async (_request, reply) => {
        reply.code(501);
        return { error: { type: 'not_implemented', message: `the ${family} API is not implemented in this version of the gateway` } };
      });
    }
  }
}
