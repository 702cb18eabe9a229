/**
 * The translation path refuses before routing, never inside failover: an
 * upstream's converters (the files of its `prepare`, convert-*.ts in the
 * folder of the protocol it speaks, src/upstreams/protocols/<dialect>/, or
 * in its own) record what they cannot serve as a refused decision, so none
 * of them may build the gateway's refusal errors itself. Answer parsing
 * (convert-response, convert-stream) reports upstream faults with its own
 * errors, never these two.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { anthropicSettings } from '../../src/upstreams/anthropic/settings.js';
import { geminiAdapter } from '../../src/upstreams/gemini/index.js';
import { geminiSettings } from '../../src/upstreams/gemini/settings.js';
import { chatAdapter } from '../../src/upstreams/registry.js';

const UPSTREAMS = path.resolve(import.meta.dirname, '../../src/upstreams');
const REFUSALS = new Set(['unsupportedFeature', 'invalidRequest']);

/** The converters in every provider folder and every protocol folder (protocols/<dialect>/). */
function converterFiles(): string[] {
  const folders = (dir: string) =>
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(dir, entry.name));
  return [...folders(UPSTREAMS), ...folders(path.join(UPSTREAMS, 'protocols'))].flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => /^convert-.*\.ts$/.test(name))
      .map((name) => path.join(dir, name)),
  );
}

/** The names a file imports (`import { a, b as c } from …` gives a and b). */
function importedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.push((element.propertyName ?? element.name).text);
  }
  return names;
}

describe('upstream converters', () => {
  it('are found (the rule below checks something)', () => {
    expect(converterFiles().length).toBeGreaterThanOrEqual(8);
  });

  it('import neither unsupportedFeature nor invalidRequest: what they cannot serve is a refused decision in prepare', () => {
    const offenders = converterFiles().flatMap((file) =>
      importedNames(file)
        .filter((name) => REFUSALS.has(name))
        .map((name) => `${path.relative(UPSTREAMS, file)} imports ${name}`),
    );
    expect(offenders).toEqual([]);
  });
});

describe('chat adapters and their settings schemas', () => {
  it('are tied by the registry: an adapter reading another type’s settings fails typecheck', () => {
    // @ts-expect-error the gemini adapter reads gemini settings, not anthropic ones
    expect(() => chatAdapter(anthropicSettings, geminiAdapter)).not.toThrow();
    expect(chatAdapter(geminiSettings, geminiAdapter).type).toBe('gemini');
  });
});
