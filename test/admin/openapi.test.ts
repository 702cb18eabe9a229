/**
 * GET /admin/openapi.json: an OpenAPI 3.1 document that names every admin
 * route (the fuzz catalogue lists them all) and whose answer schemas accept
 * what the gateway really answers, so the console's contract cannot drift.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../fuzz/catalogue.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

interface OpenApi {
  openapi: string;
  components: { schemas: Record<string, object> };
  paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string }>; responses: Record<string, { content?: Record<string, { schema?: object }> }> }>>;
}

let gw: TestGateway;
let doc: OpenApi;

beforeAll(async () => {
  gw = await startGateway({ env: { SWITCHYARD_TASK_TICK_MS: '50' } });
  const answer = await gw.admin('GET', '/openapi.json');
  expect(answer.status).toBe(200);
  doc = answer.body;
});
afterAll(() => gw?.close());

describe('the admin API’s OpenAPI document', () => {
  it('is OpenAPI 3.1 and names every admin route', () => {
    expect(doc.openapi).toBe('3.1.0');
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`)));
    const routes = CATALOGUE.filter((route) => route.family === 'admin').map((route) => `${route.method} ${route.path}`);
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) expect(documented, route).toContain(route);
    expect(documented.size).toBe(routes.length);
  });

  it('names the answers the console reads, and refers to them', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['KeyView', 'ChannelView', 'ChannelTypes', 'LogPage', 'LogDetail', 'UsageSummary', 'UsageSeries', 'TaskPage', 'TaskDetail', 'PriceList']),
    );
    expect(doc.paths['/admin/channels/{id}']!.get!.responses['200']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ChannelView' });
  });

  it('documents query parameters from the schemas the API validates with', () => {
    const names = doc.paths['/admin/logs']!.get!.parameters.map((parameter) => parameter.name);
    expect(names).toEqual(expect.arrayContaining(['since', 'until', 'keyId', 'model', 'channelId', 'family', 'status', 'limit', 'cursor']));
    expect(doc.paths['/admin/logs/{id}']!.get!.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path' })]);
  });

  it('describes what the gateway really answers', async () => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    const check = (path: string, method: string, status: number, body: unknown) => {
      const schema = doc.paths[path]![method]!.responses[String(status)]!.content!['application/json']!.schema!;
      // A named answer is a `$ref` into the document's components: compiled beside them.
      const validate = ajv.compile({ ...schema, components: doc.components });
      expect(validate(body), `${method} ${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    };
    const key = await gw.admin('POST', '/keys', { name: 'documented', quota: 5 });
    check('/admin/keys', 'post', 201, key.body);
    check('/admin/keys', 'get', 200, (await gw.admin('GET', '/keys')).body);
    const channel = await gw.admin('POST', '/channels', { name: 'sim', type: 'simulator', models: ['doc-model', 'ig_*'] });
    check('/admin/channels', 'post', 201, channel.body);
    check('/admin/channels/{id}', 'get', 200, (await gw.admin('GET', `/channels/${channel.body.id}`)).body);
    check('/admin/channels/{id}/test', 'post', 200, (await gw.admin('POST', `/channels/${channel.body.id}/test`, {})).body);

    const reply = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key.body.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'doc-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(reply.status).toBe(200);
    const logs = (await gw.admin('GET', '/logs')).body;
    check('/admin/logs', 'get', 200, logs);
    check('/admin/logs/{id}', 'get', 200, (await gw.admin('GET', `/logs/${logs.data[0].id}`)).body);
    check('/admin/usage', 'get', 200, (await gw.admin('GET', '/usage')).body);
    check('/admin/usage/series', 'get', 200, (await gw.admin('GET', '/usage/series?by=model')).body);

    const task = await fetch(`${gw.url}/ig/submit/imagine`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.body.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a fox' }),
    }).then((response) => response.json() as Promise<{ result: string }>);
    check('/admin/tasks', 'get', 200, (await gw.admin('GET', '/tasks')).body);
    check('/admin/tasks/{id}', 'get', 200, (await gw.admin('GET', `/tasks/${task.result}`)).body);
    check('/admin/prices', 'get', 200, (await gw.admin('GET', '/prices')).body);
    check('/admin/prices/{model}', 'put', 200, (await gw.admin('PUT', '/prices/doc-*', { input: 1, tiers: [{ above: 1000, input: 2 }], perSecond: { '720P': 0.1 } })).body);
    check('/admin/prices', 'get', 200, (await gw.admin('GET', '/prices')).body);
    check('/admin/prices/quote', 'get', 200, (await gw.admin('GET', '/prices/quote?model=doc-model')).body);
    check('/admin/prices/quote', 'get', 200, (await gw.admin('GET', '/prices/quote?model=unpriced')).body);
    check('/admin/prices/catalogue', 'get', 200, (await gw.admin('GET', '/prices/catalogue')).body);
    check('/admin/prices/{model}', 'delete', 200, (await gw.admin('DELETE', '/prices/doc-*')).body);
    check('/admin/prices/{model}', 'put', 400, (await gw.admin('PUT', '/prices/doc-*', { input: 'free' })).body);
    check('/admin/settings', 'get', 200, (await gw.admin('GET', '/settings')).body);
    check('/admin/channel-types', 'get', 200, (await gw.admin('GET', '/channel-types')).body);
    const audit = (await gw.admin('GET', '/audit?limit=2')).body;
    check('/admin/audit', 'get', 200, audit);
    check('/admin/audit/{id}', 'get', 200, (await gw.admin('GET', `/audit/${audit.data[0].id}`)).body);
    const budget = await gw.admin('POST', '/budgets', { scopeKind: 'key', scopeId: key.body.id, name: 'doc', amountUsd: 5, period: 'monthly', timeZone: 'Europe/Paris' });
    check('/admin/budgets', 'post', 201, budget.body);
    check('/admin/budgets', 'get', 200, (await gw.admin('GET', `/budgets?scopeKind=key&scopeId=${key.body.id}`)).body);
    check('/admin/budgets/{id}', 'get', 200, (await gw.admin('GET', `/budgets/${budget.body.id}`)).body);
    check('/admin/budgets/{id}', 'patch', 200, (await gw.admin('PATCH', `/budgets/${budget.body.id}`, { tokens: 1000 })).body);
    check('/admin/budgets/{id}', 'delete', 200, (await gw.admin('DELETE', `/budgets/${budget.body.id}`)).body);
    const refused = await gw.admin('GET', '/logs?status=teapot');
    check('/admin/logs', 'get', 400, refused.body);
  });
});
