/**
 * fastify's JSON Schema compilers, given to the app as loaded-on-first-use
 * (src/server/schema-compilers.ts): no gateway route declares a schema, but
 * one that did would still be validated and serialized as by the defaults.
 */
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { lazySchemaCompilers } from '../../src/server/schema-compilers.js';

it('validates a body and serializes an answer by their schemas', async () => {
  const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers } });
  app.post(
    '/echo',
    {
      schema: {
        body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
        response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
    },
    async (request) => ({ n: (request.body as { n: number }).n, hidden: 'not in the schema' }),
  );
  const refused = await app.inject({ method: 'POST', url: '/echo', payload: { n: 'one' } });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().message).toMatch(/body\/n must be integer/);
  const served = await app.inject({ method: 'POST', url: '/echo', payload: { n: 2 } });
  expect(served.statusCode).toBe(200);
  expect(served.json()).toEqual({ n: 2 });
  await app.close();
});
