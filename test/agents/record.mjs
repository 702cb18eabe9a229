#!/usr/bin/env node
/**
 * Records what each coding-agent CLI really sends, as replayable fixtures:
 *
 *   node test/agents/record.mjs [--cli claude,codex,gemini,opencode]
 *
 * Each CLI runs a plain turn and a tool loop with a recording proxy in front
 * of the scripted fake of its own dialect (Claude Code -> anthropic, Codex ->
 * openai-responses, Gemini CLI -> gemini, opencode -> openai-chat), so every
 * request succeeds whatever the gateway currently accepts. Every request is
 * written, credentials redacted, to
 * test/fixtures/agents/<cli>-<version>/NN-<model>-<case>-<turn>.json
 * as { method, path, headers, body } (the `host` and `content-length`
 * headers dropped, the scratch directory written `<tmp>`), plus
 * manifest.json listing them. The CLI's folder is replaced on each run.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startFake } from './fakes/index.mjs';
import { startRecordProxy } from './record-proxy.mjs';
import { CLIS, prepareHome } from './clis.mjs';
import { PLAIN_PROMPT, REPO_ROOT, TOOL_PROMPT, carriesToolResult, packageVersion, runProcess, tempDir } from './lib.mjs';
import { scrubPaths } from './scrub-paths.mjs';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'agents');

/** Models recorded per CLI: the newest request shape first. */
const RECORD_MODELS = {
  claude: ['claude-opus-5', 'claude-sonnet-4-5'],
  codex: ['gpt-6.1-sol', 'gpt-5.5', 'gpt-5.1-codex'],
  gemini: ['gemini-3.1-pro-preview'],
  opencode: ['gpt-5.5', 'claude-sonnet-4-5'],
};

function args() {
  const argv = process.argv.slice(2);
  const index = argv.indexOf('--cli');
  const value = index >= 0 ? argv[index + 1] : process.env.AGENTS_CLI;
  return { clis: value ? value.split(',') : Object.keys(RECORD_MODELS), timeoutMs: 120_000 };
}

function fixture(record) {
  const { host, 'content-length': _length, ...headers } = record.headers;
  return { method: record.method, path: record.path, headers, body: record.body };
}

function slug(text) {
  return text
    .replace(/[^a-zA-Z0-9.]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

async function recordCli(cli, timeoutMs, scratch) {
  const spec = CLIS[cli];
  const version = packageVersion(spec.package);
  const dir = path.join(FIXTURES, `${spec.fixtureName}-${version}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const fake = await startFake(spec.dialect);
  const manifest = { cli: spec.package, version, recordedAt: new Date().toISOString(), upstream: `scripted fake (${spec.dialect})`, files: [] };
  const problems = [];
  let n = 0;
  try {
    for (const model of RECORD_MODELS[cli]) {
      for (const caseName of ['plain', 'tool']) {
        const root = path.join(scratch, `${cli}-${model}-${caseName}`);
        const { home, cwd } = await prepareHome(cli, root);
        const proxy = await startRecordProxy({ target: fake.origin });
        const command = spec.command({ baseUrl: proxy.url, model, prompt: caseName === 'tool' ? TOOL_PROMPT : PLAIN_PROMPT, home, cwd });
        const run = await runProcess(command.command, command.args, { env: command.env, cwd, timeoutMs });
        await proxy.close();
        const outcome = spec.result(run, { home });
        const expected = caseName === 'tool' ? 'The tool said: SWITCHYARD_TOOL_OK' : 'SWITCHYARD_PLAIN_OK';
        if (run.code !== 0 || !outcome.text.includes(expected)) {
          problems.push(
            `${cli} (${model}) ${caseName}: exit ${run.code}${run.timedOut ? ' (timed out)' : ''}, answer ${JSON.stringify(outcome.text.slice(0, 120))}${outcome.error ? `, error ${outcome.error}` : ''}`,
          );
        }
        let firstSeen = false;
        for (const record of proxy.records.sort((a, b) => a.seq - b.seq)) {
          let turn;
          const side = spec.sideRequest?.(record.body);
          const main = record.method === 'POST' && !/count_?tokens/i.test(record.path) && !side;
          if (main && carriesToolResult(record.body)) turn = caseName === 'tool' ? 'result-turn' : 'tool-result';
          else if (main && !firstSeen) {
            turn = caseName === 'tool' ? 'first-turn' : 'turn';
            firstSeen = true;
          } else turn = `extra-${side ?? slug(`${record.method} ${record.path.split('?')[0]}`)}`;
          const name = `${String(++n).padStart(2, '0')}-${slug(model)}-${caseName}-${turn}.json`;
          // The scratch dir (in prompts that name the working directory) says nothing about the CLI.
          writeFileSync(path.join(dir, name), scrubPaths(JSON.stringify(fixture(record), null, 2), scratch) + '\n');
          manifest.files.push({ file: name, model, case: caseName, turn, method: record.method, path: record.path, status: record.response?.status ?? null });
        }
      }
    }
  } finally {
    await fake.close();
  }
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return { dir, files: manifest.files, problems };
}

async function main() {
  const { clis, timeoutMs } = args();
  const scratch = await tempDir('switchyard-agents-record-');
  let failed = false;
  try {
    for (const cli of clis) {
      if (!CLIS[cli]) throw new Error(`unknown CLI ${cli}`);
      // The fakes speak HTTP only: a CLI on another transport would record its fallback, not what it sends.
      if (!RECORD_MODELS[cli]) throw new Error(`${cli} is not recorded here (the fakes speak HTTP; its turns are recorded by run.mjs, under results/)`);
      const { dir, files, problems } = await recordCli(cli, timeoutMs, scratch);
      process.stdout.write(`${path.relative(REPO_ROOT, dir)}: ${files.length} request(s)\n${files.map((f) => `  ${f.file}  ${f.method} ${f.path} -> ${f.status}`).join('\n')}\n`);
      for (const problem of problems) process.stdout.write(`  PROBLEM ${problem}\n`);
      failed ||= problems.length > 0;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  process.stderr.write(`recording failed: ${error.stack ?? error}\n`);
  process.exit(2);
});
