/**
 * parseAsIs: a value the walk accepts is zod's answer exactly (zod accepts
 * it and answers an equal value), a value it rejects zod refuses, and
 * anything else goes to zod. Checked branch by branch on small schemas, then
 * on every family's request schemas over the recorded agent bodies, the fuzz
 * bases and one-node mutations of each.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { asIsVerdict, asIsWhen, parseAsIs } from '../../src/core/accept-as-is.js';
import { messagesRequestSchema } from '../../src/dialects/messages/schema.js';
import { responsesRequestSchema } from '../../src/dialects/responses/schema-request.js';
import { itemSchemas, otherItemSchema } from '../../src/dialects/responses/schema-items.js';
import { inputPartSchemas, outputPartSchemas } from '../../src/dialects/responses/schema-content.js';
import { otherToolSchema as otherResponsesToolSchema, toolSchemas } from '../../src/dialects/responses/schema-tools.js';
import { generateRequestSchema } from '../../src/dialects/generate/schema.js';
import { chatCompletionsRequestSchema, functionToolSchema, otherToolSchema } from '../../src/dialects/chat-completions/schema-request.js';
import { assistantPartSchemas, messageSchemas, userPartSchemas } from '../../src/dialects/chat-completions/schema-messages.js';
import { chatCompletionsBody, generateBody, messagesBody, responsesBody } from '../fuzz/bases.js';
import { pathsOf, withAt } from '../fuzz/mutations.js';

/** The property every verdict must keep. */
function expectAgreement(schema: z.ZodType, value: unknown): 'accept' | 'reject' | 'unsure' {
  const verdict = asIsVerdict(schema, value);
  const zod = schema.safeParse(value);
  if (verdict === 'accept') {
    expect(zod.success).toBe(true);
    expect(zod.data).toStrictEqual(value);
  }
  if (verdict === 'reject') expect(zod.success).toBe(false);
  return verdict;
}

describe('the walk, node by node', () => {
  it('accepts plain values and answers them as themselves', () => {
    const schema = z.looseObject({ a: z.string().min(1), n: z.int().gte(0).optional(), b: z.boolean().nullish(), e: z.enum(['x', 'y']), l: z.literal(3) });
    const value = { a: 'hi', n: 2, b: null, e: 'y', l: 3, extra: { kept: true } };
    expect(expectAgreement(schema, value)).toBe('accept');
    const parsed = parseAsIs(schema, value);
    expect(parsed.success && parsed.data).toBe(value);
  });

  it('walks the keys a plain object has, and leaves every doubt to the full walk', () => {
    const schema = z.object({ need: z.string(), opt: z.number().optional(), many: z.array(z.string()).optional() });
    expect(expectAgreement(schema, { need: 'a' })).toBe('accept');
    expect(expectAgreement(schema, { many: ['x'], need: 'a' })).toBe('accept');
    // A required key missing, an explicit undefined, an unknown key zod strips, a default to fill in.
    expect(expectAgreement(schema, { opt: 1 })).toBe('reject');
    expect(expectAgreement(schema, { need: 'a', opt: undefined })).toBe('unsure');
    expect(expectAgreement(schema, { need: 'a', other: 1 })).toBe('unsure');
    expect(expectAgreement(schema.extend({ def: z.number().default(1) }), { need: 'a' })).toBe('unsure');
    // The first field in the schema's order still decides between refusing and doubting.
    expect(expectAgreement(schema, { opt: 'x', need: 'a' })).toBe('reject');
    expect(expectAgreement(schema, { many: 'x', need: 'a', other: 1 })).toBe('reject');
  });

  it("rejects what zod refuses, and parseAsIs answers with zod's error", () => {
    const schema = z.looseObject({ a: z.string().min(2), n: z.int() });
    for (const value of [{ a: 'x', n: 1 }, { a: 'xy', n: 1.5 }, { a: 'xy' }, { n: 1 }, [], null, 'text', { a: 'xy', n: Infinity }]) {
      expect(expectAgreement(schema, value)).toBe('reject');
    }
    const parsed = parseAsIs(schema, { a: 'x', n: 1 });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(['a']);
  });

  it('leaves to zod an object whose unknown keys zod would strip', () => {
    const schema = z.object({ a: z.string() });
    expect(expectAgreement(schema, { a: 'x' })).toBe('accept');
    expect(expectAgreement(schema, { a: 'x', b: 1 })).toBe('unsure');
    const parsed = parseAsIs(schema, { a: 'x', b: 1 });
    expect(parsed.data).toEqual({ a: 'x' });
    expect(expectAgreement(z.strictObject({ a: z.string() }), { a: 'x', b: 1 })).toBe('reject');
  });

  it('leaves an own __proto__ key to zod, which drops it', () => {
    const value = JSON.parse('{"a":"x","__proto__":{"polluted":true}}');
    expect(expectAgreement(z.looseObject({ a: z.string() }), value)).toBe('unsure');
    expect(expectAgreement(z.record(z.string(), z.unknown()), value)).toBe('unsure');
  });

  it('runs refine and superRefine as zod does, on objects too', () => {
    const even = z.int().refine((n) => n % 2 === 0);
    expect(expectAgreement(even, 4)).toBe('accept');
    expect(expectAgreement(even, 3)).toBe('reject');
    const pair = z.looseObject({ a: z.number(), b: z.number() }).superRefine((value, ctx) => {
      if (value.a > value.b) ctx.addIssue({ code: 'custom', message: 'a above b' });
    });
    expect(expectAgreement(pair, { a: 1, b: 2 })).toBe('accept');
    expect(expectAgreement(pair, { a: 3, b: 2 })).toBe('reject');
    expect(expectAgreement(z.string().regex(/^a+$/), 'aaa')).toBe('accept');
    expect(expectAgreement(z.string().regex(/^a+$/), 'ab')).toBe('reject');
  });

  it('answers a union by its first option that does not refuse', () => {
    const schema = z.union([z.object({ kind: z.literal('a') }), z.looseObject({ kind: z.string() })]);
    expect(expectAgreement(schema, { kind: 'a' })).toBe('accept');
    // The first option would strip `more`: zod's answer is its copy, not the value.
    expect(expectAgreement(schema, { kind: 'a', more: 1 })).toBe('unsure');
    expect(expectAgreement(schema, { kind: 'b', more: 1 })).toBe('accept');
    expect(expectAgreement(schema, { kind: 1 })).toBe('reject');
    const tagged = z.discriminatedUnion('type', [z.looseObject({ type: z.literal('x'), v: z.number() }), z.looseObject({ type: z.literal('y') })]);
    expect(expectAgreement(tagged, { type: 'x', v: 1 })).toBe('accept');
    expect(expectAgreement(tagged, { type: 'x' })).toBe('reject');
    expect(expectAgreement(tagged, { type: 'z' })).toBe('reject');
    expect(expectAgreement(z.xor([z.string(), z.string().min(2)]), 'abc')).toBe('unsure');
  });

  it('follows recursive schemas', () => {
    type Node = { name: string; children?: Node[] };
    const node: z.ZodType<Node> = z.looseObject({ name: z.string(), children: z.array(z.lazy(() => node)).optional() });
    expect(expectAgreement(node, { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] })).toBe('accept');
    expect(expectAgreement(node, { name: 'a', children: [{ name: 2 }] })).toBe('reject');
  });

  it('leaves transforms, defaults and coercion to zod unless declared identity', () => {
    expect(
      expectAgreement(
        z.string().transform((s) => s.trim()),
        'x',
      ),
    ).toBe('unsure');
    expect(expectAgreement(z.looseObject({ a: z.string().default('d') }), { a: 'x' })).toBe('unsure');
    expect(expectAgreement(z.looseObject({ a: z.string().default('d').optional() }), {})).toBe('unsure');
    expect(expectAgreement(z.string().default('d').optional(), undefined)).toBe('unsure');
    expect(expectAgreement(z.coerce.number(), 3)).toBe('unsure');
    expect(expectAgreement(z.string().trim(), ' x ')).toBe('unsure');
    expect(expectAgreement(z.string().trim(), 'x')).toBe('accept');
    const upper = asIsWhen(
      z
        .string()
        .transform((s) => s.toUpperCase())
        .pipe(z.enum(['A', 'B'])),
      (value) => typeof value === 'string' && value === value.toUpperCase(),
    );
    expect(expectAgreement(upper, 'A')).toBe('accept');
    expect(expectAgreement(upper, 'a')).toBe('unsure');
    expect(parseAsIs(upper, 'a').data).toBe('A');
    expect(expectAgreement(upper, 'C')).toBe('reject');
    const list = asIsWhen(
      z
        .union([z.array(z.string()), z.string()])
        .transform((v) => (Array.isArray(v) ? v : [v]))
        .refine((v) => v.length > 0),
      Array.isArray,
    );
    expect(expectAgreement(list, ['x'])).toBe('accept');
    expect(expectAgreement(list, [])).toBe('reject');
    expect(expectAgreement(list, 'x')).toBe('unsure');
  });
});

/** Every request body the repository holds for a family: recorded agent turns and the fuzz base. */
function recordedBodies(path: RegExp): unknown[] {
  const root = join(__dirname, '..', 'fixtures', 'agents');
  const bodies: unknown[] = [];
  for (const agent of readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const file of readdirSync(join(root, agent.name)).filter((name) => name.endsWith('.json') && name !== 'manifest.json')) {
      const recorded = JSON.parse(readFileSync(join(root, agent.name, file), 'utf8'));
      if (typeof recorded.path === 'string' && path.test(recorded.path) && recorded.body) bodies.push(recorded.body);
    }
  }
  return bodies;
}

/** Replacements tried at every node: each type zod tells apart, and the node removed. */
const REPLACEMENTS: unknown[] = [undefined, null, 0, -1, 1.5, 2048, '', 'x', 'USER', true, [], [{}], {}, { type: 'text', text: 'x' }];

/** Checks the property on the body and on one-node mutations of it (a spread sample of the nodes when there are many). */
function checkMutations(schema: z.ZodType, body: unknown, maxNodes = 150): void {
  expectAgreement(schema, body);
  const paths = pathsOf(body);
  const step = Math.max(1, Math.ceil(paths.length / maxNodes));
  for (let i = 0; i < paths.length; i += step) {
    for (const replacement of REPLACEMENTS) expectAgreement(schema, withAt(body, paths[i]!, replacement));
  }
  expectAgreement(schema, { ...(body as object), unknown_field: 1 });
}

// Thousands of validations each: minutes, not seconds, when other workers share the cores.
describe('family schemas agree with zod', { timeout: 180_000 }, () => {
  it('Messages: recorded agent bodies are accepted as they are', () => {
    const bodies = [...recordedBodies(/\/v1\/messages(\?|$)/), messagesBody()];
    expect(bodies.length).toBeGreaterThan(5);
    for (const body of bodies) expect(expectAgreement(messagesRequestSchema(), body)).toBe('accept');
    for (const body of bodies) checkMutations(messagesRequestSchema(), body);
  });

  it('Responses: the top level, every item, part and tool schema', () => {
    const bodies = [...recordedBodies(/\/v1\/responses$/), responsesBody()] as Array<{ input: unknown; tools?: unknown[] }>;
    expect(bodies.length).toBeGreaterThan(5);
    for (const body of bodies) expect(expectAgreement(responsesRequestSchema(), body)).toBe('accept');
    for (const body of bodies) checkMutations(responsesRequestSchema(), body, 60);
    const items = bodies.flatMap((body) => (Array.isArray(body.input) ? body.input : []));
    const schemas = [...Object.values(itemSchemas()), otherItemSchema(), ...Object.values(inputPartSchemas()), ...Object.values(outputPartSchemas())];
    for (const item of items) for (const schema of schemas) expectAgreement(schema, item);
    for (const tool of bodies.flatMap((body) => body.tools ?? [])) {
      for (const schema of [...Object.values(toolSchemas()), otherResponsesToolSchema()]) checkMutations(schema, tool, 20);
    }
  });

  it('Chat Completions: the top level, every role, part and tool schema', () => {
    const bodies = [...recordedBodies(/\/chat\/completions$/), chatCompletionsBody()] as Array<{ messages: unknown[]; tools?: unknown[] }>;
    expect(bodies.length).toBeGreaterThan(5);
    for (const body of bodies) expect(expectAgreement(chatCompletionsRequestSchema(), body)).toBe('accept');
    for (const body of bodies) checkMutations(chatCompletionsRequestSchema(), body, 60);
    const parts = [...Object.values(userPartSchemas()), ...Object.values(assistantPartSchemas())];
    for (const message of bodies.flatMap((body) => body.messages) as Array<{ content?: unknown }>) {
      for (const schema of Object.values(messageSchemas())) checkMutations(schema, message, 10);
      for (const part of Array.isArray(message.content) ? message.content : []) for (const schema of parts) expectAgreement(schema, part);
    }
    for (const tool of bodies.flatMap((body) => body.tools ?? [])) for (const schema of [functionToolSchema(), otherToolSchema()]) checkMutations(schema, tool, 20);
  });

  it('content generation: recorded bodies, with their integer and enum spellings', () => {
    const recorded = recordedBodies(/:(stream)?[gG]enerateContent/);
    expect(recorded.length).toBeGreaterThan(3);
    for (const body of recorded) expect(expectAgreement(generateRequestSchema(), body)).toBe('accept');
    // The fuzz base declares its tool's parameter types in lower case, which zod converts.
    for (const body of [...recorded, generateBody()]) checkMutations(generateRequestSchema(), body, 80);
    // Integers written as strings and enums in lower case are zod's to convert.
    for (const generationConfig of [{ maxOutputTokens: '64' }, { thinkingConfig: { thinkingLevel: 'low' } }]) {
      expect(expectAgreement(generateRequestSchema(), { ...(recorded[0] as object), generationConfig })).toBe('unsure');
    }
    const written = { ...(recorded[0] as object), generationConfig: { maxOutputTokens: 64, thinkingConfig: { thinkingLevel: 'LOW' } } };
    expect(expectAgreement(generateRequestSchema(), written)).toBe('accept');
  });
});
