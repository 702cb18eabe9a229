/** The recorded agent fixtures name no path of the machine that recorded them. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scrubPaths } from './scrub-paths.mjs';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents');

function fixtureFiles(): string[] {
  return readdirSync(fixtures)
    .map((name) => path.join(fixtures, name))
    .filter((dir) => statSync(dir).isDirectory())
    .flatMap((dir) => readdirSync(dir).map((name) => path.join(dir, name)));
}

describe('scrubPaths', () => {
  const scratch = path.join(os.tmpdir(), 'switchyard-agents-record-AbC123');
  // Claude Code names a project's folder after its path, every separator a dash.
  const projectFolder = scratch.replaceAll('/', '-');
  // Gemini CLI's own scratch folder, which the scrubber renames too.
  const geminiScratch = path.join('.gemini', 'tmp', 'work');

  it('writes the scratch dir <tmp>, as a path and as a Claude Code project folder name', () => {
    const text = `"${scratch}/claude-opus-tool/home/.claude/projects/${projectFolder}-claude-opus-tool-work/memory/"`;
    expect(scrubPaths(text, scratch)).toBe('"<tmp>/claude-opus-tool/home/.claude/projects/<tmp>-claude-opus-tool-work/memory/"');
  });

  it('finds the project folder name of a recording whose scratch dir it is not told', () => {
    expect(scrubPaths('projects/-var-folders-x1-T-switchyard-agents-record-Zz9-claude-work/')).toBe('projects/<tmp>-claude-work/');
  });

  it('renames tmp and work segments under the scratch dir, wherever the path ends', () => {
    expect(scrubPaths(`<cwd>${scratch}/codex-plain/work</cwd>`, scratch)).toBe('<cwd><tmp>/codex-plain/workspace</cwd>');
    expect(scrubPaths(`"${scratch}/gemini/home/${geminiScratch}\\n"`, scratch)).toBe('"<tmp>/gemini/home/.gemini/temp/workspace\\n"');
    expect(scrubPaths(`"${scratch}/workbench"`, scratch)).toBe('"<tmp>/workbench"');
  });

  it("keeps Codex's agent name, which is not a path", () => {
    const header = '{"agent_name":"/root"}';
    expect(scrubPaths(header)).toBe(header);
  });
});

describe('recorded agent fixtures', () => {
  it('are valid JSON, and name no path of the recording machine', () => {
    const files = fixtureFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (file.endsWith('.json')) expect(() => JSON.parse(text), file).not.toThrow();
      // `/Users/name/My Documents` is an example in opencode's own instructions; `/root/…` names Codex's agents.
      expect(text, file).not.toMatch(/switchyard-agents-record|(?<![\w>.-])\/(tmp|home|var\/folders)\/|\/Users\/(?!name\/)/);
      expect(scrubPaths(text), `${file} is not scrubbed`).toBe(text);
    }
  });
});
