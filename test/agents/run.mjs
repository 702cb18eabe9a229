#!/usr/bin/env node
/**
 * Runs real coding-agent CLIs headless through the gateway, against every
 * upstream type, and prints CLI (model) x upstream x {plain, tool, discovery,
 * compact} -> PASS/FAIL.
 *
 *   node test/agents/run.mjs [--cli claude,codex,gemini] [--upstream simulator,anthropic,...]
 *        [--model NAME,...] [--case plain,tool,discovery,compact] [--jobs 4] [--timeout 120] [--gateway source|bundle]
 *        [--out DIR] [--verbose]
 * (the same filters as env: AGENTS_CLI, AGENTS_UPSTREAM, AGENTS_MODEL, AGENTS_CASE, AGENTS_JOBS)
 *
 * Per upstream: a scripted fake upstream (test/agents/fakes) on loopback, a
 * gateway started from this repository whose only channel points at it (the
 * simulator needs no fake), and per CLI run a recording proxy between the CLI
 * and the gateway. Every exchange, CLI output and the gateway log are kept
 * under --out (default test/agents/results). Exit code 1 if any case fails.
 *
 * A case passes when the CLI exits 0, no request was refused (status >= 400,
 * POST) by the gateway, and:
 *   plain: the answer holds SWITCHYARD_PLAIN_OK (simulator: any answer);
 *   tool:  the answer holds "The tool said: SWITCHYARD_TOOL_OK", which the fake
 *          only writes after the CLI ran `echo SWITCHYARD_TOOL_OK` and sent the
 *          output back (simulator: a later request carried a tool result);
 *   discovery (the CLIs that list it in `extraCases`: Claude Code with gateway
 *          model discovery on): as plain, and the CLI's GET /v1/models was
 *          answered 200 with the model under test in what it cached (discovery.mjs);
 *   compact (`extraCases` of codex-builtin; not through the simulator): the
 *          tool prompt with a low compaction threshold, judged in compact.mjs.
 * A CLI whose `transport` is `responses-websocket` must also keep every turn
 * on the WebSocket, with no error or fallback (websocketProblems).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startFake } from './fakes/index.mjs';
import { startRecordProxy } from './record-proxy.mjs';
import { CLIS, prepareHome } from './clis.mjs';
import { COMPACT_CASE, compactApplies, compactReasons } from './compact.mjs';
import { DISCOVERY_CASE, discoveryReasons } from './discovery.mjs';
import { AGENTS_DIR, PLAIN_PROMPT, TOOL_PROMPT, carriesToolResult, channelFor, packageVersion, runProcess, startGateway, tempDir } from './lib.mjs';

const UPSTREAMS = ['simulator', 'anthropic', 'openai-chat', 'gemini', 'openai-responses', 'vertex', 'azure-openai', 'bedrock'];
/** Every case, all run by default; each CLI runs the common ones and those it lists in `extraCases`. */
const CASES = ['plain', 'tool', DISCOVERY_CASE, COMPACT_CASE];
const COMMON_CASES = ['plain', 'tool'];
const PROMPTS = { plain: PLAIN_PROMPT, tool: TOOL_PROMPT, [DISCOVERY_CASE]: PLAIN_PROMPT, [COMPACT_CASE]: TOOL_PROMPT };

function caseApplies(cli, caseName, upstream) {
  if (!COMMON_CASES.includes(caseName) && !CLIS[cli].extraCases?.includes(caseName)) return false;
  return caseName !== COMPACT_CASE || compactApplies(upstream);
}

function options() {
  const args = process.argv.slice(2);
  const get = (name, env) => {
    const index = args.indexOf(`--${name}`);
    if (index >= 0) return args[index + 1];
    const inline = args.find((a) => a.startsWith(`--${name}=`));
    if (inline) return inline.slice(name.length + 3);
    return process.env[env];
  };
  const list = (value) =>
    value
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : null;
  return {
    clis: list(get('cli', 'AGENTS_CLI')) ?? Object.keys(CLIS),
    upstreams: list(get('upstream', 'AGENTS_UPSTREAM')) ?? UPSTREAMS,
    models: list(get('model', 'AGENTS_MODEL')),
    cases: list(get('case', 'AGENTS_CASE')) ?? CASES,
    jobs: Number(get('jobs', 'AGENTS_JOBS') ?? 4),
    timeoutMs: Number(get('timeout', 'AGENTS_TIMEOUT') ?? 120) * 1000,
    gatewayMode: get('gateway', 'AGENTS_GATEWAY') ?? 'source',
    out: path.resolve(get('out', 'AGENTS_OUT') ?? path.join(AGENTS_DIR, 'results')),
    verbose: args.includes('--verbose') || process.env.AGENTS_VERBOSE === '1',
  };
}

/** The message of an error body, whatever the dialect. */
function errorMessage(body) {
  if (body == null) return '(no body)';
  if (typeof body === 'string') return body.slice(0, 300);
  const candidate = Array.isArray(body) ? body[0] : body;
  const message = candidate?.error?.message ?? candidate?.message ?? candidate?.description;
  return message ? String(message) : JSON.stringify(body).slice(0, 300);
}

/**
 * What keeps a case on the Responses WebSocket from passing: a WebSocket
 * error, retry or fallback line on the CLI's stderr, a turn sent as
 * POST /v1/responses (the HTTP fallback), a turn the socket left unanswered,
 * or no turn served over the socket at all.
 */
function websocketProblems(run, records) {
  const problems = [];
  const lines = run.stderr.split('\n').filter((line) => /responses_websocket|websocket|Falling back|Reconnecting\.\.\./i.test(line));
  if (lines.length) problems.push(`WebSocket error or fallback on stderr: ${lines[0].trim().slice(0, 200)}${lines.length > 1 ? ` (+${lines.length - 1} more)` : ''}`);
  const overHttp = records.filter((r) => r.method === 'POST' && r.path === '/v1/responses');
  if (overHttp.length) problems.push(`${overHttp.length} turn(s) sent over HTTP instead of the WebSocket`);
  const unanswered = records.filter((r) => r.method === 'WS' && r.response?.status === 0);
  if (unanswered.length) problems.push(`${unanswered.length} WebSocket turn(s) left without a terminal event`);
  if (!records.some((r) => r.method === 'WS' && r.response?.status === 200 && r.body?.generate !== false)) problems.push('no turn was served over the WebSocket');
  return problems;
}

function judge({ caseName, upstream, model, home }, run, outcome, records, transport) {
  const reasons = [];
  if (transport === 'responses-websocket') reasons.push(...websocketProblems(run, records));
  const refused = records.filter((r) => r.method !== 'GET' && (r.response?.status ?? 0) >= 400);
  if (run.timedOut) reasons.push(`timed out after ${Math.round(run.ms / 1000)} s`);
  else if (run.code !== 0) reasons.push(`exit ${run.code ?? run.signal}`);
  if (refused.length) {
    const first = refused[0];
    const distinct = new Set(refused.map((r) => `${r.response.status} ${errorMessage(r.response.body)}`));
    reasons.push(
      `gateway refused ${refused.length}/${records.length} request(s): ${first.response.status} ${first.method} ${first.path}: ${errorMessage(first.response.body)}` +
        (distinct.size > 1 ? ` (+${distinct.size - 1} other error(s), see proxy records)` : ''),
    );
  }
  const aux = records.filter((r) => r.method === 'GET' && (r.response?.status ?? 0) >= 400);
  const notes = aux.map((r) => `${r.response.status} ${r.method} ${r.path}`);
  const posts = records.filter((r) => r.method === 'POST' || r.method === 'WS');
  if (!refused.length && run.code === 0) {
    const plainLike = caseName === 'plain' || caseName === DISCOVERY_CASE;
    if (plainLike && upstream !== 'simulator' && !outcome.text.includes('SWITCHYARD_PLAIN_OK')) reasons.push(`answer lacks SWITCHYARD_PLAIN_OK: ${JSON.stringify(outcome.text.slice(0, 160))}`);
    if (plainLike && upstream === 'simulator' && !outcome.text.trim()) reasons.push('empty answer');
    if (caseName === 'tool' && upstream !== 'simulator' && !outcome.text.includes('The tool said: SWITCHYARD_TOOL_OK')) {
      reasons.push(`answer lacks "The tool said: SWITCHYARD_TOOL_OK": ${JSON.stringify(outcome.text.slice(0, 160))}`);
    }
    if (caseName === 'tool' && upstream === 'simulator' && !posts.some((r) => carriesToolResult(r.body))) reasons.push('no request carried a tool result (the tool loop did not happen)');
    if (caseName === COMPACT_CASE) reasons.push(...compactReasons(records, outcome));
  }
  if (caseName === DISCOVERY_CASE) reasons.push(...discoveryReasons(records, { home, model }));
  if (outcome.error && reasons.length && !refused.length) reasons.push(`CLI said: ${outcome.error.slice(0, 300)}`);
  if (!records.length && !run.timedOut) reasons.push('the CLI sent no request to the gateway');
  return { pass: reasons.length === 0, reasons, notes, requests: records.length };
}

async function pool(tasks, jobs) {
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(jobs, tasks.length)) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]();
      }
    }),
  );
  return results;
}

async function main() {
  const opts = options();
  for (const cli of opts.clis) if (!CLIS[cli]) throw new Error(`unknown CLI ${cli} (one of ${Object.keys(CLIS).join(', ')})`);
  for (const caseName of opts.cases) if (!CASES.includes(caseName)) throw new Error(`unknown case ${caseName} (one of ${CASES.join(', ')})`);
  for (const upstream of opts.upstreams) if (!UPSTREAMS.includes(upstream)) throw new Error(`unknown upstream ${upstream} (one of ${UPSTREAMS.join(', ')})`);
  rmSync(opts.out, { recursive: true, force: true });
  mkdirSync(opts.out, { recursive: true });
  const scratch = await tempDir('switchyard-agents-');
  const versions = Object.fromEntries(opts.clis.map((cli) => [cli, packageVersion(CLIS[cli].package)]));
  process.stdout.write(
    `agent CLIs: ${opts.clis.map((cli) => `${cli} ${versions[cli]}`).join(', ')}; upstreams: ${opts.upstreams.join(', ')}; results in ${path.relative(process.cwd(), opts.out) || '.'}\n`,
  );

  const variants = opts.clis.flatMap((cli) => CLIS[cli].models.filter((m) => !opts.models || opts.models.includes(m)).map((model) => ({ cli, model })));
  for (const model of opts.models ?? []) {
    if (variants.some((v) => v.model === model)) continue;
    if (opts.clis.length !== 1) throw new Error(`model ${model} is not one of the listed models; name the CLI to run it with (--cli)`);
    variants.push({ cli: opts.clis[0], model });
  }

  // One fake and one gateway per upstream, all up before the CLIs run.
  const stacks = {};
  // The channel serves `*`; the model list (GET /v1/models, the discovery case) shows the models run.
  const listed = [...new Set(variants.map((v) => v.model))];
  try {
    for (const upstream of opts.upstreams) {
      const dir = path.join(opts.out, upstream);
      const fake = upstream === 'simulator' ? null : await startFake(upstream);
      const gateway = await startGateway({ channel: channelFor(upstream, fake, listed), dir: path.join(scratch, upstream), mode: opts.gatewayMode });
      stacks[upstream] = { dir, fake, gateway };
    }

    const tasks = [];
    for (const upstream of opts.upstreams) {
      for (const { cli, model } of variants) {
        for (const caseName of opts.cases) {
          if (!caseApplies(cli, caseName, upstream)) continue;
          tasks.push(async () => {
            const id = `${cli}-${model}-${caseName}`;
            const caseDir = path.join(stacks[upstream].dir, id);
            const root = path.join(scratch, upstream, id);
            const { home, cwd } = await prepareHome(cli, root);
            const proxy = await startRecordProxy({ target: stacks[upstream].gateway.url, out: path.join(caseDir, 'requests'), label: id });
            const setup = CLIS[cli].setup?.({ baseUrl: proxy.url, home, caseName });
            if (setup) {
              const ready = await runProcess(setup.command, setup.args, { env: setup.env, cwd, timeoutMs: opts.timeoutMs, input: setup.input, stderrPath: path.join(caseDir, 'setup-stderr.txt') });
              if (ready.code !== 0) throw new Error(`${cli} setup failed (exit ${ready.code}): ${ready.stderr.slice(-300)}`);
            }
            const spec = CLIS[cli].command({ baseUrl: proxy.url, model, prompt: PROMPTS[caseName], home, cwd, caseName });
            const run = await runProcess(spec.command, spec.args, {
              env: spec.env,
              cwd,
              timeoutMs: opts.timeoutMs,
              stdoutPath: path.join(caseDir, 'stdout.txt'),
              stderrPath: path.join(caseDir, 'stderr.txt'),
            });
            await new Promise((resolve) => setTimeout(resolve, 100));
            await proxy.close();
            const outcome = CLIS[cli].result(run, { home });
            const verdict = judge({ caseName, upstream, model, home }, run, outcome, proxy.records, CLIS[cli].transport);
            const result = { cli, model, upstream, case: caseName, ...verdict, exit: run.code, ms: run.ms, answer: outcome.text.slice(0, 500), cliError: outcome.error };
            writeFileSync(path.join(caseDir, 'result.json'), JSON.stringify(result, null, 2) + '\n');
            if (opts.verbose) process.stdout.write(`${result.pass ? 'PASS' : 'FAIL'} ${cli} (${model}) x ${upstream} x ${caseName} ${(run.ms / 1000).toFixed(1)} s\n`);
            return result;
          });
        }
      }
    }
    const results = await pool(tasks, opts.jobs);
    report(results, opts);
    process.exitCode = results.every((r) => r.pass) ? 0 : 1;
  } finally {
    for (const { fake, gateway, dir } of Object.values(stacks)) {
      await gateway.stop();
      if (fake) {
        writeFileSync(path.join(dir, 'upstream-requests.jsonl'), fake.requests.map((r) => JSON.stringify(r)).join('\n') + '\n');
        await fake.close();
      }
    }
    for (const upstream of opts.upstreams) {
      try {
        writeFileSync(path.join(opts.out, upstream, 'gateway.log'), readFileSync(path.join(scratch, upstream, 'gateway.log')));
      } catch {
        // no gateway log
      }
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}

function report(results, opts) {
  const rows = [];
  const seen = new Map();
  for (const r of results) {
    const key = `${r.cli} (${r.model})|${r.upstream}`;
    if (!seen.has(key)) {
      seen.set(key, { label: `${r.cli} (${r.model})`, upstream: r.upstream });
      rows.push(seen.get(key));
    }
    seen.get(key)[r.case] = r.pass ? 'PASS' : 'FAIL';
  }
  rows.sort((a, b) => a.label.localeCompare(b.label) || UPSTREAMS.indexOf(a.upstream) - UPSTREAMS.indexOf(b.upstream));
  const width = Math.max(...rows.map((row) => row.label.length), 10) + 2;
  const column = (c) => Math.max(c.length + 2, 7);
  const lines = ['', `${'CLI (model)'.padEnd(width)}${'upstream'.padEnd(18)}${opts.cases.map((c) => c.padEnd(column(c))).join('')}`];
  for (const row of rows) lines.push(`${row.label.padEnd(width)}${row.upstream.padEnd(18)}${opts.cases.map((c) => (row[c] ?? '-').padEnd(column(c))).join('')}`);
  const failures = results.filter((r) => !r.pass);
  if (failures.length) {
    // One line per CLI (model) and distinct reason, naming the upstreams and cases it hit.
    lines.push('', 'Failures:');
    const groups = new Map();
    for (const r of failures) {
      const reason = r.reasons.join('; ');
      const key = `${r.cli} (${r.model})|${reason.replaceAll(r.upstream, '<upstream>')}`;
      if (!groups.has(key)) groups.set(key, { label: `${r.cli} (${r.model})`, reason, where: [] });
      groups.get(key).where.push(`${r.upstream}/${r.case}`);
    }
    for (const g of groups.values()) lines.push(`- ${g.label} x ${g.where.join(', ')}: ${g.reason}`);
  }
  const notes = results.filter((r) => r.notes.length);
  if (notes.length) {
    lines.push('', 'Notes (auxiliary GET calls refused):');
    for (const r of notes) lines.push(`- ${r.cli} (${r.model}) x ${r.upstream} x ${r.case}: ${[...new Set(r.notes)].join(', ')}`);
  }
  const passed = results.length - failures.length;
  lines.push('', `Details (every request, CLI output, gateway log): ${opts.out}`, `agents: ${passed} passed, ${results.length - passed} failed`);
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((error) => {
  process.stderr.write(`agent CLI suite could not run: ${error.stack ?? error}\n`);
  process.exit(2);
});
