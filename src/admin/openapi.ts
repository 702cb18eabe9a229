/**
 * The admin API as an OpenAPI 3.1 document, built from the schemas the API
 * validates its input with (service.ts, queries.ts) and describes its answers
 * with (response-schemas.ts, log-schemas.ts, task-schemas.ts). Served at
 * GET /admin/openapi.json; the console's types are generated from it
 * (scripts/reference/console-types.ts).
 * test/admin/openapi.test.ts checks that every admin route is here and that
 * real answers match.
 */
import { z } from 'zod';
import { ADMIN_OPERATIONS, NAMED_ANSWERS, type Operation } from './openapi-operations.js';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

function queryParameters(schema: z.ZodType) {
  const object = jsonSchema(schema, 'input') as { properties?: Record<string, Record<string, unknown>> };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: 'query', required: false, description, schema: rest };
  });
}

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
}

const nameOf = new Map<z.ZodType, string>(Object.entries(NAMED_ANSWERS).map(([name, schema]) => [schema, name]));

/** An answer's schema: a reference to its component when it is named, else inline. */
function answerSchema(schema: z.ZodType): Record<string, unknown> {
  const name = nameOf.get(schema);
  return name ? { $ref: `#/components/schemas/${name}` } : jsonSchema(schema, 'output');
}

function operationObject(operation: Operation) {
  const error = { description: 'Refused: the admin error shape.', content: { 'application/json': { schema: answerSchema(NAMED_ANSWERS.AdminError!) } } };
  const success = operation.answer
    ? { description: 'OK', content: { 'application/json': { schema: answerSchema(operation.answer) } } }
    : { description: 'OK', content: { [operation.answerType ?? 'application/json']: {} } };
  return {
    tags: [operation.tag],
    summary: operation.summary,
    operationId: `${operation.method}${operation.path.replace(/[{}]/g, '').replace(/[/.-](\w)/g, (_, letter: string) => letter.toUpperCase())}`,
    parameters: [...pathParameters(operation.path), ...(operation.query ? queryParameters(operation.query) : [])],
    ...(operation.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(operation.body, 'input') } } } } : {}),
    responses: { [String(operation.status ?? 200)]: success, '400': error, '401': error, '403': error, '404': error },
  };
}

/** The named answers as JSON Schema, one named inside another referred to (`$ref`) rather than repeated. */
function componentSchemas(): Record<string, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries(NAMED_ANSWERS)) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12', uri: (name) => `#/components/schemas/${name}` });
  // Each is a part of the document: its dialect is the document's, and its place is its name.
  return Object.fromEntries(Object.entries(schemas).map(([name, { $schema: _dialect, $id: _place, ...schema }]) => [name, schema as Record<string, unknown>]));
}

let built: Record<string, unknown> | undefined;

export function adminOpenApi(version: string): Record<string, unknown> {
  if (built) return built;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of ADMIN_OPERATIONS) {
    const path = `/admin${operation.path}`;
    paths[path] = { ...paths[path], [operation.method]: operationObject(operation) };
  }
  built = {
    openapi: '3.1.0',
    info: {
      title: 'Switchyard admin API',
      version,
      description:
        'Keys, teams, users, channels, prices, budgets, request logs, usage, tasks, settings and the audit log. Every operation takes the admin key or a personal admin token as `Authorization: Bearer <key>` or `x-admin-key`, and needs a permission of the caller’s role (`GET /admin/me` lists them); a team admin reaches only the teams they administer.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }, { adminKey: [] }],
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        adminKey: { type: 'apiKey', in: 'header', name: 'x-admin-key' },
      },
    },
    paths,
  };
  return built;
}
