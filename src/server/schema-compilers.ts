/**
 * Fastify's JSON Schema compilers (Ajv for validation, fast-json-stringify
 * for serialization), required on first use instead of when the app is
 * created. No gateway route declares a fastify schema (the families validate
 * with zod), so normally they never load; fastify's defaults required both at
 * `Fastify()` (two Ajv instances' worth of code), and the bundle carried
 * about 230 kB of them that every start compiled. The bundle leaves both
 * packages out (`external` in scripts/bundle.mjs); `createRequire` finds them
 * in node_modules, where fastify's own dependencies put them.
 *
 * The one difference from the defaults: fastify treats a compiler given here
 * as custom, which only changes how it prepares a route's `headers` schema
 * (no route has one).
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** What `@fastify/ajv-compiler`'s default export returns: a validator builder, pooled per Ajv options. */
type BuildValidator = import('@fastify/ajv-compiler').BuildCompilerFromPool;
/** What `@fastify/fast-json-stringify-compiler`'s default export returns: a serializer builder, pooled likewise. */
type BuildSerializer = NonNullable<CompilersFactory['buildSerializer']>;

const requireFromHere = createRequire(import.meta.url);
let buildValidator: BuildValidator | undefined;
let buildSerializer: BuildSerializer | undefined;

/** fastify's own default compilers, each made (once) the first time a route with a schema asks. */
export const lazySchemaCompilers: { buildValidator: BuildValidator; buildSerializer: BuildSerializer } = {
  buildValidator: (externalSchemas, options) => {
    buildValidator ??= (requireFromHere('@fastify/ajv-compiler') as () => BuildValidator)();
    return buildValidator(externalSchemas, options);
  },
  buildSerializer: (externalSchemas, options) => {
    buildSerializer ??= (requireFromHere('@fastify/fast-json-stringify-compiler') as () => BuildSerializer)();
    return buildSerializer(externalSchemas, options);
  },
};
