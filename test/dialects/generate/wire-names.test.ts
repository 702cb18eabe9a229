/**
 * The proto-name renaming follows the request schema: every field the schema
 * declares, at any depth, is reachable by its snake_case name and comes out
 * lowerCamel; a free-form value below it is left as the client wrote it; a
 * name a message does not have is refused with its path. The fields are
 * collected here from the zod schema itself, not from the tree the renaming
 * derives from it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { GatewayError } from '../../../src/core/errors.js';
import { generateRequestSchema } from '../../../src/dialects/generate/schema.js';
import { normalizeWireNames, toSnake, wireTree } from '../../../src/dialects/generate/wire-names.js';

type Segment = { field: string } | { index: 0 } | { key: string };

/** Every path from the request to a field with no message below it; `seen` holds the recursive schemas above. */
function leafPaths(schema: z.ZodType, prefix: Segment[], seen: Set<z.ZodType>): Segment[][] | 'leaf' {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return leafPaths(schema.unwrap() as z.ZodType, prefix, seen);
  if (schema instanceof z.ZodLazy) {
    // A recursive message is walked once on each path (its fields inside itself are the same fields).
    if (seen.has(schema)) return [];
    return leafPaths(schema._zod.innerType as z.ZodType, prefix, new Set(seen).add(schema));
  }
  if (schema instanceof z.ZodPipe) {
    const input = schema.in as z.ZodType;
    return input instanceof z.ZodTransform ? leafPaths(schema.out as z.ZodType, prefix, seen) : leafPaths(input, prefix, seen);
  }
  if (schema instanceof z.ZodUnion) {
    // `contents`: a list of Content or one; the list is taken.
    const list = (schema.options as z.ZodType[]).find((option) => option instanceof z.ZodArray);
    if (list) return leafPaths(list, prefix, seen);
    return 'leaf';
  }
  if (schema instanceof z.ZodArray) return leafPaths(schema.element as z.ZodType, [...prefix, { index: 0 }], seen);
  if (schema instanceof z.ZodRecord) return leafPaths(schema.valueType as z.ZodType, [...prefix, { key: 'client_named_key' }], seen);
  if (schema instanceof z.ZodObject) {
    if (schema._zod.def.catchall && !(schema._zod.def.catchall instanceof z.ZodNever)) return 'leaf';
    const paths: Segment[][] = [];
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const path = [...prefix, { field: name }];
      const inner = leafPaths(field, path, seen);
      if (inner === 'leaf') paths.push(path);
      else paths.push(...inner);
    }
    return paths;
  }
  return 'leaf';
}

const allLeafPaths = () => leafPaths(generateRequestSchema(), [], new Set()) as Segment[][];

/** A free-form value with snake_case names inside, which must come out as it went in. */
const marker = () => ({ client_name: { nested_name: [1, { deep_name: true }] } });

function build(path: Segment[], spell: (name: string) => string, leaf: unknown, extra?: Record<string, unknown>): unknown {
  const [head, ...rest] = path;
  if (!head) return leaf;
  const inner = build(rest, spell, leaf, extra);
  const withExtra = (object: Record<string, unknown>) => (rest.length === 0 && extra ? { ...extra, ...object } : object);
  if ('index' in head) return [inner];
  if ('key' in head) return { [head.key]: inner };
  return withExtra({ [spell(head.field)]: inner });
}

function at(value: unknown, path: Segment[]): unknown {
  let node = value;
  for (const segment of path) {
    if ('index' in segment) node = (node as unknown[])[0];
    else node = (node as Record<string, unknown>)['key' in segment ? segment.key : segment.field];
  }
  return node;
}

function refusal(body: Record<string, unknown>): GatewayError {
  try {
    normalizeWireNames(body);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected a refusal');
}

/** The proto spelling of the message holding the last field of a path, as the refusal names it. */
function parentSpelling(path: Segment[]): string {
  let out = '';
  for (const segment of path.slice(0, -1)) {
    if ('index' in segment) out += '[0]';
    else out += (out === '' ? '' : '.') + ('key' in segment ? segment.key : toSnake(segment.field));
  }
  return out;
}

const label = (path: Segment[]) => path.map((segment) => ('index' in segment ? '[]' : 'key' in segment ? '{}' : segment.field)).join('.');

describe('normalizeWireNames, derived from the request schema', () => {
  const paths = allLeafPaths();

  it('finds the fields of every message, those of the recursive Schema object where it is used', () => {
    const labels = paths.map(label);
    expect(paths.length).toBeGreaterThan(100);
    expect(labels).toContain('contents.[].parts.[].inlineData.mimeType');
    expect(labels).toContain('generationConfig.thinkingConfig.thinkingBudget');
    expect(labels).toContain('tools.[].functionDeclarations.[].parameters.maxLength');
    expect(labels).toContain('generationConfig.responseSchema.propertyOrdering');
    expect(labels).toContain('generationConfig.speechConfig.multiSpeakerVoiceConfig.speakerVoiceConfigs.[].voiceConfig.prebuiltVoiceConfig.voiceName');
  });

  it('renames every field given by its snake_case name, leaving free-form values below it as they are', () => {
    for (const path of paths) {
      const body = build(path, toSnake, marker()) as Record<string, unknown>;
      normalizeWireNames(body);
      expect(at(body, path), label(path)).toEqual(marker());
    }
  });

  it('takes every field given by its lowerCamel name unchanged', () => {
    for (const path of paths) {
      const body = build(path, (name) => name, marker()) as Record<string, unknown>;
      const before = structuredClone(body);
      normalizeWireNames(body);
      expect(body, label(path)).toEqual(before);
    }
  });

  it('refuses a name that is no field of its message, naming where it was', () => {
    for (const path of paths) {
      const body = build(path, toSnake, marker(), { not_a_field: 1 }) as Record<string, unknown>;
      const where = parentSpelling(path);
      expect(refusal(body).message, label(path)).toBe(`Invalid JSON payload received. Unknown name "not_a_field"${where ? ` at '${where}'` : ''}: Cannot find field.`);
    }
  });

  it('keeps the client names of function arguments, JSON schemas and property maps', () => {
    const body = {
      contents: [{ role: 'model', parts: [{ function_call: { name: 'f', args: { city_name: 'Paris' } } }] }],
      tools: [
        {
          function_declarations: [
            {
              name: 'f',
              parameters: { type: 'OBJECT', properties: { city_name: { type: 'STRING', max_length: 20, example: { some_key: 1 } } }, property_ordering: ['city_name'] },
              parameters_json_schema: { type: 'object', additional_properties: false },
            },
          ],
        },
      ],
    };
    normalizeWireNames(body);
    expect(body).toEqual({
      contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: { city_name: 'Paris' } } }] }],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'f',
              parameters: { type: 'OBJECT', properties: { city_name: { type: 'STRING', maxLength: 20, example: { some_key: 1 } } }, propertyOrdering: ['city_name'] },
              parametersJsonSchema: { type: 'object', additional_properties: false },
            },
          ],
        },
      ],
    });
  });

  it('derives a new field from the schema alone', () => {
    const schema = z.object({ generationConfig: z.object({ newSetting: z.object({ someLimit: z.int() }).optional(), labels: z.record(z.string(), z.string()) }) });
    const tree = wireTree(schema) as Record<string, Record<string, unknown>>;
    expect(tree.generationConfig.newSetting).toEqual({ someLimit: 'value' });
    expect(tree.generationConfig.labels).toBe('value');
  });
});
