/**
 * The fuzz generators. Each draws a small recipe (named by `gen`, so a
 * finding says which generator found it and `pendingFix` can switch one off);
 * `buildRequest` turns a recipe and a catalogue route into the bytes sent.
 * Indexes in recipes are taken modulo the list they pick from, so one recipe
 * arbitrary serves every route and shrinks towards the first entries.
 */
import fc from 'fast-check';
import type { Fixtures, RouteEntry } from './catalogue.js';
import type { FuzzRequest } from './http.js';
import * as m from './mutations.js';
import { deepText, hostileValue, materialize, serialize, UNICODE_EDGES, type Hostile } from './values.js';
import { authHeaders, AUTH_VARIANTS } from './auth.js';

export type Recipe =
  | { gen: 'base' }
  | { gen: 'json.malformed'; variant: m.MalformedJson; pick: number }
  | { gen: 'field.replace'; path: number; value: Hostile }
  | { gen: 'field.delete'; path: number }
  | { gen: 'field.extra'; at: number; key: string; value: Hostile }
  | { gen: 'pollution'; at: number; payload: number }
  | { gen: 'media.bad'; field: number; value: number }
  | { gen: 'content-type'; variant: number }
  | { gen: 'body.oversized'; size: number }
  | { gen: 'multipart'; variant: m.MultipartVariant; pick: number; value: Hostile }
  | { gen: 'path.odd'; param: number; value: number }
  | { gen: 'path.too-long'; param: number; value: number }
  | { gen: 'path.malformed'; param: number; value: number }
  | { gen: 'query.odd'; param: number; variant: m.QueryVariant; pick: number }
  | { gen: 'query.bad-percent'; value: number }
  | { gen: 'auth.odd'; variant: number }
  | { gen: 'header.oversized'; size: number }
  | { gen: 'method.wrong'; method: string }
  | { gen: 'route.unknown'; variant: number };

export type GeneratorName = Recipe['gen'];

export interface BuildContext {
  fixtures: Fixtures;
  clientKey: string;
  adminKey: string;
}

const BOUNDARY = 'fuzzboundary7MA4YWxkTrZu0gW';
const nat = fc.nat({ max: 10_000 });

const CONTENT_TYPES = [
  undefined,
  'text/plain',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/octet-stream',
  'application/xml',
  'application/json, text/plain',
  '',
];

const EXTRA_KEYS = ['extra', 'x'.repeat(300), ...UNICODE_EDGES.slice(0, 8), 'model ', 'MODEL', '0', '$ref'];

/** The generators that apply to a route, each with its recipe arbitrary. */
function generatorsFor(route: RouteEntry): Array<[GeneratorName, fc.Arbitrary<Recipe>]> {
  const out: Array<[GeneratorName, fc.Arbitrary<Recipe>]> = [];
  const add = (name: GeneratorName, arbitrary: fc.Arbitrary<Recipe>) => out.push([name, arbitrary]);
  if (route.body && !route.multipart) {
    add('json.malformed', fc.record({ gen: fc.constant('json.malformed' as const), variant: fc.constantFrom(...m.MALFORMED_JSON), pick: nat }));
    add('field.replace', fc.record({ gen: fc.constant('field.replace' as const), path: nat, value: hostileValue }));
    add('field.delete', fc.record({ gen: fc.constant('field.delete' as const), path: nat }));
    add('field.extra', fc.record({ gen: fc.constant('field.extra' as const), at: nat, key: fc.constantFrom(...EXTRA_KEYS), value: hostileValue }));
    add('pollution', fc.record({ gen: fc.constant('pollution' as const), at: nat, payload: nat }));
    add('content-type', fc.record({ gen: fc.constant('content-type' as const), variant: nat }));
    // Over the 4 MiB limit but within the 2× the gateway drains after its 413 (past that it cuts the connection, as documented).
    add('body.oversized', fc.record({ gen: fc.constant('body.oversized' as const), size: fc.constantFrom(5, 7) }));
    if (route.media?.length) add('media.bad', fc.record({ gen: fc.constant('media.bad' as const), field: nat, value: nat }));
  }
  if (route.multipart) {
    add('multipart', fc.record({ gen: fc.constant('multipart' as const), variant: fc.constantFrom(...m.MULTIPART), pick: nat, value: hostileValue }));
  }
  if (route.params) {
    add('path.odd', fc.record({ gen: fc.constant('path.odd' as const), param: nat, value: nat }));
    add('path.too-long', fc.record({ gen: fc.constant('path.too-long' as const), param: nat, value: nat }));
    add('path.malformed', fc.record({ gen: fc.constant('path.malformed' as const), param: nat, value: nat }));
  }
  add('query.odd', fc.record({ gen: fc.constant('query.odd' as const), param: nat, variant: fc.constantFrom(...m.QUERY_VARIANTS), pick: nat }));
  add('query.bad-percent', fc.record({ gen: fc.constant('query.bad-percent' as const), value: nat }));
  add('auth.odd', fc.record({ gen: fc.constant('auth.odd' as const), variant: fc.nat({ max: AUTH_VARIANTS.length - 1 }) }));
  add('header.oversized', fc.record({ gen: fc.constant('header.oversized' as const), size: fc.constantFrom(20_000, 70_000) }));
  add('method.wrong', fc.record({ gen: fc.constant('method.wrong' as const), method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') }));
  add('route.unknown', fc.record({ gen: fc.constant('route.unknown' as const), variant: nat }));
  return out;
}

/** One arbitrary over every generator of a route except those switched off. */
export function recipeArbitrary(route: RouteEntry, off: ReadonlySet<GeneratorName>): fc.Arbitrary<Recipe> {
  const on = generatorsFor(route).filter(([name]) => !off.has(name));
  return fc.oneof(...on.map(([, arbitrary]) => arbitrary));
}

/**
 * Recipes every run tries before the random ones: each body field replaced
 * once (so every field of every route meets a wrong type), each malformed
 * JSON, multipart and odd-segment variant once.
 */
export function sweepRecipes(route: RouteEntry, fixtures: Fixtures, off: ReadonlySet<GeneratorName>, seed: number): Recipe[] {
  const out: Recipe[] = [{ gen: 'base' }];
  if (route.body && !route.multipart && !route.alias && !off.has('field.replace')) {
    const paths = m.pathsOf(route.body(fixtures));
    const values = fc.sample(hostileValue, { seed, numRuns: paths.length });
    paths.forEach((_, path) => out.push({ gen: 'field.replace', path, value: values[path] }));
  }
  if (route.body && !route.multipart && !off.has('json.malformed')) {
    m.MALFORMED_JSON.forEach((variant, pick) => out.push({ gen: 'json.malformed', variant, pick: pick * 37 }));
  }
  if (route.multipart && !off.has('multipart')) {
    const values = fc.sample(hostileValue, { seed, numRuns: m.MULTIPART.length });
    m.MULTIPART.forEach((variant, pick) => out.push({ gen: 'multipart', variant, pick, value: values[pick] }));
  }
  if (route.params && !off.has('path.odd')) m.ODD_SEGMENTS.forEach((_, value) => out.push({ gen: 'path.odd', param: 0, value }));
  if (!off.has('auth.odd') && route.auth !== 'none') AUTH_VARIANTS.forEach((_, variant) => out.push({ gen: 'auth.odd', variant }));
  return out;
}

const pick = <T>(list: readonly T[], index: number): T => list[index % list.length];

/** The request a recipe describes, for one route of a running gateway. */
export function buildRequest(route: RouteEntry, recipe: Recipe, context: BuildContext): FuzzRequest {
  const params = Object.fromEntries(Object.entries(route.params ?? {}).map(([name, value]) => [name, encodeURIComponent(value(context.fixtures))]));
  const paramNames = Object.keys(params);
  const query = Object.entries(route.query ?? {})
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  let method: string = route.method;
  let headers = authHeaders(route.auth, undefined, context);
  let body: string | Buffer | undefined;
  let json = route.body?.(context.fixtures);

  switch (recipe.gen) {
    case 'path.odd':
    case 'path.too-long':
    case 'path.malformed': {
      const list = recipe.gen === 'path.odd' ? m.ODD_SEGMENTS : recipe.gen === 'path.too-long' ? m.OVERLONG_SEGMENTS : m.MALFORMED_SEGMENTS;
      params[pick(paramNames, recipe.param)] = pick(list, recipe.value);
      break;
    }
    case 'query.odd': {
      const names = [...Object.keys(route.query ?? {}), 'limit'];
      query.push(m.oddQuery(pick(names, recipe.param), recipe.variant, recipe.pick));
      break;
    }
    case 'query.bad-percent':
      query.push(pick(m.BAD_PERCENT_QUERY, recipe.value));
      break;
    case 'auth.odd': {
      const variant = AUTH_VARIANTS[recipe.variant];
      headers = authHeaders(route.auth, variant, context);
      if (variant === 'key-in-query') query.push(`key=${encodeURIComponent(context.clientKey)}`, `key=sk-other`);
      break;
    }
    case 'header.oversized':
      headers.push(['x-fuzz-padding', 'h'.repeat(recipe.size)]);
      break;
    case 'method.wrong':
      method = recipe.method;
      break;
    case 'field.replace': {
      const paths = m.pathsOf(json);
      if (paths.length > 0) json = m.withAt(json, pick(paths, recipe.path), materialize(recipe.value));
      break;
    }
    case 'field.delete': {
      const paths = m.pathsOf(json);
      if (paths.length > 0) json = m.withAt(json, pick(paths, recipe.path), undefined);
      break;
    }
    case 'field.extra': {
      const at = pick(m.objectPathsOf(json), recipe.at);
      json = m.withAt(json, [...at, recipe.key], materialize(recipe.value));
      break;
    }
    case 'media.bad': {
      const field = pick(route.media ?? [], recipe.field);
      json = m.withAt(
        json,
        field.split('.').map((key) => (/^\d+$/.test(key) ? Number(key) : key)),
        pick(m.BAD_MEDIA, recipe.value),
      );
      break;
    }
    default:
      break;
  }

  if (json !== undefined && !route.multipart) {
    body = serialize(json, recipe.gen === 'field.replace' || recipe.gen === 'field.extra' ? recipe.value : undefined);
    headers.push(['content-type', 'application/json']);
    if (recipe.gen === 'json.malformed') body = m.malformedJson(body, recipe.variant, recipe.pick);
    if (recipe.gen === 'pollution') body = polluted(json, recipe.at, recipe.payload);
    if (recipe.gen === 'body.oversized') body = `{"padding":"${'p'.repeat(recipe.size * 1024 * 1024)}"}`;
    if (recipe.gen === 'content-type') {
      headers = headers.filter(([name]) => name !== 'content-type');
      const type = pick(CONTENT_TYPES, recipe.variant);
      if (type !== undefined) headers.push(['content-type', type]);
    }
  }
  if (route.multipart) {
    const form = multipartBody(json as Record<string, unknown>, recipe);
    body = form.body;
    if (form.contentType !== undefined) headers.push(['content-type', form.contentType]);
  }
  if (method === 'GET' || method === 'OPTIONS') body = undefined;

  let path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]);
  if (recipe.gen === 'route.unknown') path = unknownRoute(path, recipe.variant);
  return { method, path: query.length > 0 ? `${path}?${query.join('&')}` : path, headers, body };
}

function unknownRoute(path: string, variant: number): string {
  return pick([`${path}/nope`, `${path}/`, `${path}/a/b/c`, path.toUpperCase(), `${path}//`, `${path}.json`], variant);
}

/** The body with a prototype-reaching key written into one of its objects (JSON.stringify would never write `__proto__`). */
function polluted(json: unknown, at: number, payload: number): string {
  const marker = '"__fuzz_marker__":0';
  const target = pick(m.objectPathsOf(json), at);
  const text = JSON.stringify(m.withAt(json, [...target, '__fuzz_marker__'], 0));
  return text.replace(marker, pick(m.POLLUTION, payload));
}

function multipartBody(json: Record<string, unknown>, recipe: Recipe): { body: Buffer; contentType?: string } {
  const fields: m.FormPart[] = Object.entries(json).map(([name, value]) => ({ name, value: typeof value === 'string' ? value : JSON.stringify(value) }));
  const type = `multipart/form-data; boundary=${BOUNDARY}`;
  if (recipe.gen !== 'multipart') return { body: m.formBody(fields, BOUNDARY), contentType: type };
  const value = materialize(recipe.value);
  const valueText = 'deep' in recipe.value ? deepText(recipe.value) : typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  const whole = m.formBody(fields, BOUNDARY);
  switch (recipe.variant) {
    case 'valid':
      return { body: whole, contentType: type };
    case 'no-boundary':
      return { body: whole, contentType: 'multipart/form-data' };
    case 'empty-boundary':
      return { body: whole, contentType: 'multipart/form-data; boundary=' };
    case 'mismatched-boundary':
      return { body: whole, contentType: 'multipart/form-data; boundary=someotherboundary' };
    case 'cut':
      return { body: whole.subarray(0, 1 + (recipe.pick % (whole.length - 1))), contentType: type };
    case 'no-final-boundary':
      return { body: whole.subarray(0, whole.length - BOUNDARY.length - 6), contentType: type };
    case 'lf-only':
      return { body: m.formBody(fields, BOUNDARY, '\n'), contentType: type };
    case 'duplicate-field':
      return { body: m.formBody([...fields, pick(fields, recipe.pick)], BOUNDARY), contentType: type };
    case 'file-under-field':
      return { body: m.formBody([...fields.slice(1), { ...pick(fields, 0), filename: 'x.png', contentType: 'image/png' }], BOUNDARY), contentType: type };
    case 'garbage-file':
      return { body: m.formBody([...fields, { name: 'input_reference', value: Buffer.from([0, 1, 2, 255, 254]), filename: 'x.png', contentType: 'image/png' }], BOUNDARY), contentType: type };
    case 'png-file':
      return {
        body: m.formBody([...fields, { name: 'input_reference', value: Buffer.from(pick(m.BAD_MEDIA, recipe.pick)), filename: '../../x.png', contentType: 'image/png' }], BOUNDARY),
        contentType: type,
      };
    case 'no-disposition-name':
      return { body: m.formBody([...fields, { value: 'nameless' }], BOUNDARY), contentType: type };
    case 'many-parts':
      return { body: m.formBody([...fields, ...Array.from({ length: 60 }, (_, i) => ({ name: `f${i}`, value: 'v' }))], BOUNDARY), contentType: type };
    case 'huge-field':
      return { body: m.formBody([...fields, { name: 'prompt', value: 'x'.repeat(300 * 1024) }].slice(1), BOUNDARY), contentType: type };
    case 'unknown-field':
      return { body: m.formBody([...fields, { name: pick(EXTRA_KEYS, recipe.pick), value: valueText }], BOUNDARY), contentType: type };
    case 'long-boundary':
      return { body: m.formBody(fields, 'b'.repeat(200)), contentType: `multipart/form-data; boundary=${'b'.repeat(200)}` };
    case 'mixed':
      return { body: whole, contentType: `multipart/mixed; boundary=${BOUNDARY}` };
    case 'invalid-utf8':
      return { body: m.formBody([...fields.slice(1), { name: fields[0].name, value: Buffer.from([0xc3, 0x28, 0xff]) }], BOUNDARY), contentType: type };
    case 'field-value': {
      const target = pick(fields, recipe.pick);
      return {
        body: m.formBody(
          fields.map((field) => (field === target ? { ...field, value: valueText } : field)),
          BOUNDARY,
        ),
        contentType: type,
      };
    }
  }
}
