/**
 * The fuzz catalogue is complete and its base requests are sound: every route
 * Fastify registers is in it (and nothing else), and each base request gets
 * the status the catalogue expects, so mutations start from a request the
 * gateway serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, type Place } from '../support/places.js';
import { CATALOGUE, registeredPath, routeLabel, routesOf, type Family, type Fixtures } from './catalogue.js';
import { createFixtures, startFuzzGateway } from './fixtures.js';
import { buildRequest } from './generators.js';
import { send } from './http.js';

/**
 * `METHOD path` for every route in Fastify's route tree (printRoutes with
 * common prefixes: each line's segment continues its parent's path). HEAD
 * routes Fastify adds for GET, and the trailing-slash twin of a prefixed
 * scope's root, are left out.
 */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const out = new Set<string>();
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S*)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack[depth] = (depth > 0 ? stack[depth - 1] : '') + match[2];
    stack.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) {
      if (method !== 'HEAD') out.add(`${method} ${stack[depth].replace(/(.)\/$/, '$1')}`);
    }
  }
  return [...out].sort();
}

describe('the fuzz catalogue', () => {
  let place: Place;
  let gw: TestGateway;
  let fixtures: Fixtures;

  beforeAll(async () => {
    place = await createPlace('sqlite');
    gw = await startFuzzGateway(place);
    fixtures = await createFixtures(gw);
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  it('lists exactly the routes the gateway registers', () => {
    const registered = registeredRoutes(gw.gateway.app.printRoutes());
    const catalogued = [...new Set(CATALOGUE.map((route) => `${route.method} ${registeredPath(route)}`))].sort();
    expect(registered.length).toBeGreaterThan(40);
    expect(
      registered.filter((route) => !catalogued.includes(route)),
      'registered but not in the fuzz catalogue',
    ).toEqual([]);
    expect(
      catalogued.filter((route) => !registered.includes(route)),
      'in the catalogue but not registered',
    ).toEqual([]);
  });

  const families: Family[] = ['health', 'messages', 'responses', 'generate', 'images', 'videos', 'batches', 'admin', 'console'];
  it('answers every base request with the expected status', async () => {
    const context = () => ({ fixtures, clientKey: gw.clientKey, adminKey: gw.adminKey });
    const unexpected: string[] = [];
    for (const route of families.flatMap(routesOf)) {
      const response = await send(gw.url, buildRequest(route, { gen: 'base' }, context()), 15_000);
      if (response.status !== (route.baseStatus ?? 200)) unexpected.push(`${routeLabel(route)}: ${response.status} ${response.text.slice(0, 200)}`);
    }
    expect(unexpected).toEqual([]);
  }, 60_000);
});
