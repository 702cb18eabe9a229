/**
 * Validators for the official OpenAPI schemas of the Responses dialect
 * (`Response`, each `ResponseStreamEvent` variant, `ErrorResponse`), from the
 * public openai-openapi description in test/fixtures/specs. The 3 MB YAML file is
 * loaded once per test file; `#/components/schemas/X` refs are rewritten to
 * point inside one combined schema.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { expect } from 'vitest';

export const OPENAPI_FILE = process.env.SWITCHYARD_OPENAPI_FILE ?? fileURLToPath(new URL('../../fixtures/specs/openai-openapi.yaml', import.meta.url));

type Validate = ((value: unknown) => boolean) & { errors?: unknown[] | null };

export interface OpenApiValidators {
  response(value: unknown): void;
  event(value: { type: string }): void;
  error(value: unknown): void;
}

let loaded: OpenApiValidators | undefined;

export function openApi(): OpenApiValidators {
  loaded ??= build();
  return loaded;
}

function build(): OpenApiValidators {
  const document = parse(readFileSync(OPENAPI_FILE, 'utf8'), { maxAliasCount: -1 }) as {
    components: { schemas: Record<string, Record<string, unknown>> };
  };
  const text = JSON.stringify(document.components.schemas).replaceAll('"#/components/schemas/', '"openapi#/$defs/');
  const defs = JSON.parse(text) as Record<string, Record<string, unknown>>;
  // The description itself has small defects (duplicate `required` entries), so it is not meta-validated.
  // Two filter schemas use draft 2019-09 recursion; in 2020-12 terms it is a plain self reference.
  for (const [name, schema] of Object.entries(defs)) {
    if (!('$recursiveAnchor' in schema)) continue;
    delete schema.$recursiveAnchor;
    defs[name] = JSON.parse(JSON.stringify(schema).replaceAll('{"$recursiveRef":"#"}', `{"$ref":"openapi#/$defs/${name}"}`));
  }
  const ajv = new Ajv2020.default({ strict: false, allErrors: false, validateFormats: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addFormat('unixtime', true);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: 'openapi', $defs: defs });
  const compiled = new Map<string, Validate>();
  const validator = (name: string): Validate => {
    let validate = compiled.get(name);
    if (!validate) {
      validate = ajv.getSchema(`openapi#/$defs/${name}`) as Validate | undefined;
      if (!validate) throw new Error(`no schema ${name} in ${OPENAPI_FILE}`);
      compiled.set(name, validate);
    }
    return validate;
  };
  const eventSchemas = new Map<string, string>();
  for (const variant of (defs.ResponseStreamEvent.anyOf as Array<{ $ref: string }>) ?? []) {
    const name = variant.$ref.replace('openapi#/$defs/', '');
    const type = (defs[name]?.properties as { type?: { enum?: string[] } } | undefined)?.type?.enum?.[0];
    if (type) eventSchemas.set(type, name);
  }
  const check = (name: string, value: unknown) => {
    const validate = validator(name);
    const ok = validate(value);
    expect(ok, `${name}: ${JSON.stringify(validate.errors, null, 1)}\n${JSON.stringify(value).slice(0, 2000)}`).toBe(true);
  };
  return {
    response: (value) => check('Response', withSpecNulls(value)),
    event: (value) => {
      const name = eventSchemas.get(value.type);
      expect(name, `no ResponseStreamEvent variant for ${value.type}`).toBeDefined();
      const response = (value as { response?: unknown }).response;
      check(name!, response === undefined ? value : { ...value, response: withSpecNulls(response) });
    },
    error: (value) => check('ErrorResponse', value),
  };
}

/**
 * Where the gateway's spec and this description disagree, the spec wins: the
 * spec has `usage` null until a stream finishes and `user` "string or null"
 * (as the service itself answers), where the description allows neither null.
 * Those two nulls are set aside before validating; everything else must conform.
 */
function withSpecNulls(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const copy = { ...(value as Record<string, unknown>) };
  if (copy.usage === null) delete copy.usage;
  if (copy.user === null) delete copy.user;
  return copy;
}
