/**
 * Runs the fuzz generators against some families' routes on every storage
 * engine: a fresh gateway per engine, fixtures, then per route a seeded
 * fast-check property (sweep recipes first, then random ones) asserting each
 * answer's properties; afterwards the gateway must still be healthy and
 * serving, and no prototype polluted. Counts inputs and 5xx per family and
 * prints a summary line. A slow answer fails on its deadline; a handler that
 * blocks the event loop outright stalls this process too (the gateway runs
 * in-process): SWITCHYARD_FUZZ_TRACE=file logs each input as it is sent,
 * so an unfinished last line names the culprit.
 *
 * Knobs: SWITCHYARD_FUZZ_RUNS (random inputs per route, default 10),
 * SWITCHYARD_FUZZ_SEED (default fixed), SWITCHYARD_FUZZ_ALL=1 (also run the
 * generators on the pendingFix list), SWITCHYARD_FUZZ_COLLECT=1 (record every
 * finding instead of stopping at the first; SWITCHYARD_FUZZ_REPORT=file
 * appends them there as JSON lines).
 */
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { routeLabel, routesOf, type Family, type Fixtures, type RouteEntry } from './catalogue.js';
import { createFixtures, startFuzzGateway } from './fixtures.js';
import { buildRequest, recipeArbitrary, sweepRecipes, type BuildContext, type GeneratorName, type Recipe } from './generators.js';
import { describeRequest, Hang, send, Unsendable, type FuzzRequest } from './http.js';
import { pendingFor } from './pending.js';
import { answerProblems } from './shapes.js';

const RUNS = Number(process.env.SWITCHYARD_FUZZ_RUNS ?? 10);
const SEED = Number(process.env.SWITCHYARD_FUZZ_SEED ?? 20261124);
const ALL = process.env.SWITCHYARD_FUZZ_ALL === '1';
const COLLECT = process.env.SWITCHYARD_FUZZ_COLLECT === '1';
const REPORT = process.env.SWITCHYARD_FUZZ_REPORT;
const TRACE = process.env.SWITCHYARD_FUZZ_TRACE;
const REQUEST_TIMEOUT_MS = 15_000;

/** Generators whose inputs are clearly not media: the answer must refuse them (4xx), not just survive them. */
const MUST_REFUSE: ReadonlySet<GeneratorName> = new Set(['media.bad']);

export interface Stats {
  inputs: number;
  fiveXx: number;
  findings: number;
}

function seedOf(label: string): number {
  let hash = SEED;
  for (const char of label) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

async function probe(url: string, request: FuzzRequest, route: RouteEntry, recipe: Recipe): Promise<{ problems: string[]; status?: number } | undefined> {
  try {
    const response = await send(url, request, REQUEST_TIMEOUT_MS);
    const problems = answerProblems(response, route.shape);
    if (MUST_REFUSE.has(recipe.gen) && (response.status < 400 || response.status >= 500)) {
      problems.push(`accepted: ${recipe.gen} input answered ${response.status}, not a 4xx`);
    }
    return { problems, status: response.status };
  } catch (error) {
    if (error instanceof Unsendable) return undefined;
    if (error instanceof Hang) return { problems: [`hang: ${error.message}`] };
    return { problems: [`connection: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`] };
  }
}

async function fuzzRoute(gw: TestGateway, route: RouteEntry, context: BuildContext, stats: Stats, engine: string): Promise<void> {
  const label = routeLabel(route);
  const off = ALL ? new Set<GeneratorName>() : pendingFor(route);
  const seed = seedOf(label);
  const examples = sweepRecipes(route, context.fixtures, off, seed).map((recipe) => [recipe] as [Recipe]);
  const property = fc.asyncProperty(recipeArbitrary(route, off), async (recipe) => {
    const request = buildRequest(route, recipe, context);
    const started = Date.now();
    if (TRACE) appendFileSync(TRACE, `${label} ${JSON.stringify(recipe).slice(0, 200)}`);
    const result = await probe(gw.url, request, route, recipe);
    if (TRACE) appendFileSync(TRACE, ` → ${result?.status} in ${Date.now() - started} ms\n`);
    if (!result) return;
    stats.inputs++;
    if (result.status !== undefined && result.status >= 500) stats.fiveXx++;
    if (result.problems.length === 0) return;
    stats.findings++;
    const finding = { engine, route: label, generator: recipe.gen, recipe, problems: result.problems, request: describeRequest(request) };
    if (REPORT) appendFileSync(REPORT, `${JSON.stringify(finding)}\n`);
    if (!COLLECT) throw new Error(`${result.problems.join('; ')}\n  generator ${recipe.gen}: ${describeRequest(request)}`);
  });
  // The sweep runs first and counts towards numRuns; fast-check prints the seed and path that replay a failure.
  await fc.assert(property, { seed, numRuns: examples.length + RUNS, examples, endOnFailure: false });
}

async function expectHealthy(gw: TestGateway): Promise<void> {
  for (const path of ['/healthz', '/readyz']) {
    const response = await fetch(gw.url + path);
    expect(response.status, path).toBe(200);
  }
}

const prototypeNames = () => [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((proto) => Object.getOwnPropertyNames(proto).sort().join(','));

/** Every route of the families under the fuzz generators, on every engine, one gateway per engine. */
export function fuzzFamilies(...families: Family[]): void {
  describe.each(ENGINES)(`fuzz: ${families.join(', ')} on %s`, (engine) => {
    let place: Place;
    let gw: TestGateway;
    let fixtures: Fixtures;
    const stats = new Map<Family, Stats>(families.map((family) => [family, { inputs: 0, fiveXx: 0, findings: 0 }]));
    const prototypesBefore = prototypeNames();

    beforeAll(async () => {
      place = await createPlace(engine);
      gw = await startFuzzGateway(place);
      fixtures = await createFixtures(gw);
    }, 60_000);
    afterAll(async () => {
      for (const [family, counts] of stats) {
        console.log(`fuzz summary: ${family} on ${engine}: ${counts.inputs} inputs tried, ${counts.fiveXx} answered 5xx, ${counts.findings} findings (${RUNS} random runs per route, seed ${SEED})`);
      }
      await gw?.close();
      await place?.destroy();
    });

    for (const route of families.flatMap(routesOf)) {
      it(routeLabel(route), async () => {
        await fuzzRoute(gw, route, { fixtures, clientKey: gw.clientKey, adminKey: gw.adminKey }, stats.get(route.family)!, engine);
        await expectHealthy(gw);
      }, 300_000);
    }

    it('the gateway is healthy and serving afterwards, and no prototype was polluted', async () => {
      await expectHealthy(gw);
      const served = await fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': gw.clientKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'after-fuzz', max_tokens: 16, messages: [{ role: 'user', content: 'still there?' }] }),
      });
      expect(served.status).toBe(200);
      const probeObject: Record<string, unknown> = {};
      expect(probeObject.polluted).toBeUndefined();
      expect(probeObject.isAdmin).toBeUndefined();
      expect(prototypeNames()).toEqual(prototypesBefore);
      if (COLLECT) return;
      expect([...stats.values()].reduce((sum, counts) => sum + counts.fiveXx, 0)).toBe(0);
    });
  });
}
