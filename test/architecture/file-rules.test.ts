/**
 * Two rules a reader relies on beside the layer order (imports.test.ts):
 * every file under src/ is short enough to read whole (a longer one holds more
 * than one concern: split it by concern), and the scripts under scripts/ run
 * without the test suite (they import nothing from test/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAX_LINES = 300;
const SCRIPT_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs', '.cjs'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** Lines as `wc -l` counts them, plus a last line without its newline. */
function lineCount(text: string): number {
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') || text === '' ? newlines : newlines + 1;
}

/** The files `source` (at `file`) imports by a relative path, resolved from the repository root. */
function relativeImports(file: string, source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.relative(ROOT, path.resolve(path.dirname(file), specifier)));
}

const isUnderTest = (fromRoot: string) => fromRoot === 'test' || fromRoot.startsWith(`test${path.sep}`);

describe('the file rules', () => {
  it(`keeps every file under src/ at ${MAX_LINES} lines or fewer`, () => {
    const long = filesUnder(path.join(ROOT, 'src'))
      .map((file) => ({ file: path.relative(ROOT, file), lines: lineCount(readFileSync(file, 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('has no script under scripts/ importing from test/', () => {
    const scripts = filesUnder(path.join(ROOT, 'scripts')).filter((file) => SCRIPT_EXTENSIONS.includes(path.extname(file)));
    expect(scripts.length).toBeGreaterThan(0);
    const intoTests = scripts.flatMap((file) =>
      relativeImports(file, readFileSync(file, 'utf8'))
        .filter(isUnderTest)
        .map((target) => `${path.relative(ROOT, file)} -> ${target}`),
    );
    expect(intoTests).toEqual([]);
  });

  it('counts lines and finds an import into test/ when there is one', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('')).toBe(0);
    const script = path.join(ROOT, 'scripts', 'example.ts');
    const imports = relativeImports(script, "import { x } from '../test/support/x.js';\nimport { y } from './y.js';\nconst z = await import('../test/z.js');\n");
    expect(imports.filter(isUnderTest)).toEqual([path.join('test', 'support', 'x.js'), path.join('test', 'z.js')]);
  });
});
