import { describe, expect, it } from 'vitest';
import { sampleFromSchema } from '../../../src/upstreams/simulator/json-schema/sample-from-schema.js';

const codePoints = (text: string) => [...text].length;

describe('sampleFromSchema: types', () => {
  it('produces each basic type', () => {
    expect(typeof sampleFromSchema({ type: 'string' })).toBe('string');
    expect(Number.isInteger(sampleFromSchema({ type: 'integer' }))).toBe(true);
    expect(typeof sampleFromSchema({ type: 'number' })).toBe('number');
    expect(typeof sampleFromSchema({ type: 'boolean' })).toBe('boolean');
    expect(sampleFromSchema({ type: 'null' })).toBeNull();
    expect(sampleFromSchema({ type: 'object' })).toEqual({});
    expect(Array.isArray(sampleFromSchema({ type: 'array' }))).toBe(true);
  });

  it('picks the first non-null type of a type list, and null when that is all there is', () => {
    expect(typeof sampleFromSchema({ type: ['null', 'integer'] })).toBe('number');
    expect(sampleFromSchema({ type: ['null'] })).toBeNull();
  });

  it('accepts Gemini-style uppercase types and nullable', () => {
    const value = sampleFromSchema({
      type: 'OBJECT',
      properties: { name: { type: 'STRING' }, count: { type: 'INTEGER', nullable: true }, tags: { type: 'ARRAY', items: { type: 'STRING' } } },
      required: ['name'],
    });
    expect(value).toEqual({ name: 'sample', count: 1, tags: ['sample'] });
  });

  it('infers a type from the keywords when none is given', () => {
    expect(sampleFromSchema({ properties: { a: { type: 'boolean' } } })).toEqual({ a: true });
    expect(sampleFromSchema({ items: { type: 'integer' } })).toEqual([1]);
    expect(sampleFromSchema({ minimum: 5 })).toBe(5);
    expect(sampleFromSchema({})).toBe('sample');
  });

  it('is deterministic', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'number' } } } };
    expect(JSON.stringify(sampleFromSchema(schema, 'x'))).toBe(JSON.stringify(sampleFromSchema(schema, 'x')));
  });
});

describe('sampleFromSchema: const and enum', () => {
  it('returns const and the first enum value', () => {
    expect(sampleFromSchema({ const: { a: 1 } })).toEqual({ a: 1 });
    expect(sampleFromSchema({ type: 'string', enum: ['celsius', 'fahrenheit'] })).toBe('celsius');
    expect(sampleFromSchema({ type: 'STRING', format: 'enum', enum: ['LOW', 'HIGH'] })).toBe('LOW');
  });
});

describe('sampleFromSchema: strings', () => {
  it('puts the hint in the first string field it fits, once', () => {
    const schema = {
      type: 'object',
      properties: { code: { type: 'string', maxLength: 3 }, city: { type: 'string' }, note: { type: 'string' } },
      required: ['code', 'city', 'note'],
    };
    expect(sampleFromSchema(schema, 'Paris, France')).toEqual({ code: 'sam', city: 'Paris, France', note: 'sample' });
  });

  it('honours minLength and maxLength in code points', () => {
    const short = sampleFromSchema({ type: 'string', maxLength: 2 }) as string;
    expect(codePoints(short)).toBeLessThanOrEqual(2);
    const long = sampleFromSchema({ type: 'string', minLength: 20 }) as string;
    expect(codePoints(long)).toBeGreaterThanOrEqual(20);
    const exact = sampleFromSchema({ type: 'string', minLength: 4, maxLength: 4 }) as string;
    expect(codePoints(exact)).toBe(4);
    expect(sampleFromSchema({ type: 'string', minLength: 1, maxLength: 5 }, '🙂🙂🙂')).toBe('🙂🙂🙂');
  });

  it('produces well-formed values for the common formats', () => {
    expect(sampleFromSchema({ type: 'string', format: 'date-time' })).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(sampleFromSchema({ type: 'string', format: 'date' })).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sampleFromSchema({ type: 'string', format: 'email' })).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(() => new URL(sampleFromSchema({ type: 'string', format: 'uri' }) as string)).not.toThrow();
    expect(sampleFromSchema({ type: 'string', format: 'uuid' })).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('matches simple patterns', () => {
    const cases = ['^[A-Z]{3}$', '^\\d{3}-\\d{4}$', '^[a-z]+(-[a-z]+)*$', '^(foo|bar)baz\\.txt$', '^\\+?[1-9]\\d{1,14}$', '^[^0-9]{2,}$', '^(?:[a-f0-9]{2}:){5}[a-f0-9]{2}$', 'x'];
    for (const pattern of cases) {
      const value = sampleFromSchema({ type: 'string', pattern }) as string;
      expect(new RegExp(pattern, 'u').test(value), `${pattern} → ${value}`).toBe(true);
    }
  });

  it('combines pattern with length bounds', () => {
    const value = sampleFromSchema({ type: 'string', pattern: '^[a-z]+$', minLength: 5 }) as string;
    expect(value).toMatch(/^[a-z]{5,}$/);
  });

  it('uses the hint for a patterned field only when the hint matches', () => {
    expect(sampleFromSchema({ type: 'string', pattern: '^[0-9]+$' }, 'hello')).toBe('0');
    expect(sampleFromSchema({ type: 'string', pattern: '^[0-9]+$' }, '42')).toBe('42');
  });
});

describe('sampleFromSchema: numbers', () => {
  it('respects minimum and maximum', () => {
    expect(sampleFromSchema({ type: 'integer', minimum: 10 })).toBe(10);
    expect(sampleFromSchema({ type: 'integer', maximum: -3 })).toBe(-3);
    expect(sampleFromSchema({ type: 'number', minimum: 0.25, maximum: 0.75 })).toBeGreaterThanOrEqual(0.25);
    expect(sampleFromSchema({ type: 'number', minimum: 0.25, maximum: 0.75 })).toBeLessThanOrEqual(0.75);
  });

  it('respects exclusive bounds in both the 2020-12 and draft-04 forms', () => {
    expect(sampleFromSchema({ type: 'integer', exclusiveMinimum: 1 })).toBe(2);
    expect(sampleFromSchema({ type: 'integer', exclusiveMaximum: 1 })).toBe(0);
    expect(sampleFromSchema({ type: 'integer', minimum: 1, exclusiveMinimum: true })).toBe(2);
    const between = sampleFromSchema({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }) as number;
    expect(between).toBeGreaterThan(0);
    expect(between).toBeLessThan(1);
  });

  it('respects multipleOf', () => {
    expect(sampleFromSchema({ type: 'integer', multipleOf: 5 })).toBe(5);
    expect(sampleFromSchema({ type: 'integer', multipleOf: 7, minimum: 20 })).toBe(21);
    expect(sampleFromSchema({ type: 'integer', multipleOf: 4, minimum: 1, maximum: 10 })).toBe(4);
    expect(sampleFromSchema({ type: 'integer', multipleOf: 0.3 })).toBe(3);
    expect(sampleFromSchema({ type: 'number', multipleOf: 0.1, minimum: 1.25 })).toBe(1.3);
  });
});

describe('sampleFromSchema: objects', () => {
  it('fills required and optional properties and nothing else when additionalProperties is false', () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
      required: ['city'],
      additionalProperties: false,
    };
    expect(sampleFromSchema(schema, 'Paris')).toEqual({ city: 'Paris', unit: 'c' });
  });

  it('fills required keys that only additionalProperties describes', () => {
    expect(sampleFromSchema({ type: 'object', required: ['n'], additionalProperties: { type: 'integer' } })).toEqual({ n: 1 });
  });

  it('honours minProperties and maxProperties', () => {
    const many = sampleFromSchema({ type: 'object', minProperties: 2, additionalProperties: { type: 'boolean' } }) as object;
    expect(Object.keys(many).length).toBe(2);
    const few = sampleFromSchema({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } },
      required: ['c'],
      maxProperties: 1,
    });
    expect(few).toEqual({ c: 'sample' });
  });

  it('keeps a property named __proto__ as data', () => {
    const keyed = sampleFromSchema(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"integer"}}}'));
    expect(JSON.stringify(keyed)).toBe('{"__proto__":1}');
    expect(Object.getPrototypeOf(keyed)).toBe(Object.prototype);
  });
});

describe('sampleFromSchema: arrays', () => {
  it('honours minItems and maxItems', () => {
    expect((sampleFromSchema({ type: 'array', items: { type: 'string' }, minItems: 3 }) as unknown[]).length).toBe(3);
    expect(sampleFromSchema({ type: 'array', items: { type: 'string' }, maxItems: 0 })).toEqual([]);
  });

  it('fills prefixItems (2020-12) and array items (draft-07 tuples)', () => {
    expect(sampleFromSchema({ type: 'array', prefixItems: [{ type: 'integer' }, { type: 'boolean' }], items: false })).toEqual([1, true]);
    expect(sampleFromSchema({ type: 'array', items: [{ type: 'string' }, { type: 'null' }], additionalItems: false })).toEqual(['sample', null]);
  });

  it('makes items differ when uniqueItems is set', () => {
    const value = sampleFromSchema({ type: 'array', items: { type: 'integer' }, minItems: 3, uniqueItems: true }) as number[];
    expect(new Set(value).size).toBe(3);
    const strings = sampleFromSchema({ type: 'array', items: { type: 'string' }, minItems: 3, uniqueItems: true }) as string[];
    expect(new Set(strings).size).toBe(3);
  });

  it('includes an item matching contains', () => {
    const value = sampleFromSchema({ type: 'array', items: { type: 'integer' }, contains: { minimum: 5 } }) as number[];
    expect(value.some((v) => v >= 5)).toBe(true);
  });
});

describe('sampleFromSchema: composition', () => {
  it('takes the first branch of anyOf and oneOf, with the sibling keywords', () => {
    expect(sampleFromSchema({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('sample');
    expect(sampleFromSchema({ oneOf: [{ type: 'integer', minimum: 3 }, { type: 'string' }] })).toBe(3);
    expect(sampleFromSchema({ type: 'object', properties: { a: { type: 'integer' } }, anyOf: [{ required: ['b'] }] })).toEqual({ a: 1, b: 'sample' });
  });

  it('merges allOf', () => {
    const value = sampleFromSchema({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { type: 'integer', minimum: 2 } }, required: ['b'] },
        { properties: { a: { maxLength: 3 } } },
      ],
    });
    expect(value).toEqual({ a: 'sam', b: 2 });
    expect(
      sampleFromSchema({
        allOf: [
          { type: 'integer', minimum: 2 },
          { maximum: 10, minimum: 4 },
        ],
      }),
    ).toBe(4);
    expect(sampleFromSchema({ allOf: [{ type: ['string', 'integer'] }, { type: 'integer' }] })).toBe(1);
  });

  it('resolves $ref to $defs, definitions and the root, with recursion ending', () => {
    expect(sampleFromSchema({ $defs: { city: { type: 'string', minLength: 8 } }, type: 'object', properties: { c: { $ref: '#/$defs/city' } } })).toEqual({ c: 'samplexx' });
    expect(sampleFromSchema({ definitions: { n: { type: 'integer', minimum: 7 } }, $ref: '#/definitions/n' })).toBe(7);
    const tree = sampleFromSchema({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name'],
    });
    expect(JSON.stringify(tree)).toContain('"name":"sample"');
  });

  it('throws, naming the problem, for unsupported or unsatisfiable schemas', () => {
    expect(() => sampleFromSchema({ $ref: 'https://example.com/schema.json' })).toThrow(/\$ref/);
    expect(() => sampleFromSchema({ type: 'object', properties: { a: false }, required: ['a'] })).toThrow(/false/);
    expect(() => sampleFromSchema({ $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' })).toThrow(/circular/);
    expect(() => sampleFromSchema({ type: 'object', properties: { self: { $ref: '#' } }, required: ['self'] })).toThrow(/deeper/);
  });
});

describe('sampleFromSchema: schemas the SDKs send', () => {
  it('builds a strict OpenAI-style tool input', () => {
    const schema = {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City and country' },
        unit: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null] },
        days: { type: 'integer', minimum: 1, maximum: 7 },
      },
      required: ['location', 'unit', 'days'],
      additionalProperties: false,
    };
    expect(sampleFromSchema(schema, 'Paris')).toEqual({ location: 'Paris', unit: 'celsius', days: 1 });
  });

  it('builds an AI SDK (zod) style schema with $schema and nested objects', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        recipe: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            ingredients: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, amount: { type: 'string' } }, required: ['name', 'amount'], additionalProperties: false } },
            steps: { type: 'array', items: { type: 'string' } },
          },
          required: ['name', 'ingredients', 'steps'],
          additionalProperties: false,
        },
      },
      required: ['recipe'],
      additionalProperties: false,
    };
    expect(sampleFromSchema(schema, 'lasagna')).toEqual({
      recipe: { name: 'lasagna', ingredients: [{ name: 'sample', amount: 'sample' }], steps: ['sample'] },
    });
  });
});
