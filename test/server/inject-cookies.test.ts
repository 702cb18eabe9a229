/**
 * The HTTP framework's injector (light-my-request) runs on the cookie 1.x line
 * that package.json's `overrides` pins (cookie 2 declares Node 22): a request
 * injected with cookies reaches the route with them.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

describe('fastify inject with the overridden cookie package', () => {
  it('sends injected cookies as a Cookie header', async () => {
    const app = Fastify();
    app.get('/echo', async (request) => ({ cookie: request.headers.cookie }));
    const response = await app.inject({ method: 'GET', url: '/echo', cookies: { session: 'a b', other: '1' } });
    expect(response.json()).toEqual({ cookie: 'session=a%20b; other=1' });
    await app.close();
  });
});
