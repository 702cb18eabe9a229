/**
 * The cache benchmark's numbers: per client dialect × upstream type and per
 * setup, the cached share of the prompt as the upstream counted it, what the
 * client was told, and what the prompt cost at a fixed price table.
 */
import { costOf } from './prices.mjs';

const sum = (rows, field) => rows.reduce((total, row) => total + (row[field] ?? 0), 0);
const ratio = (part, whole) => (whole > 0 ? part / whole : null);

/**
 * `records`: the upstream's rows of one pair and setup (all sessions);
 * `reported`: the clients' per-turn usage. Ratios leave out each session's
 * first turn (nothing can be cached yet); `ratioAllTurns` keeps it.
 */
export function summarise({ records, reported, sessions, errors, billed }) {
  const later = records.filter((row) => row.turn > 1);
  const laterReported = reported.flatMap((turns) => turns.slice(1));
  const keysPerSession = [...new Set(records.map((row) => row.marker))].map((marker) => new Set(records.filter((row) => row.marker === marker).map((row) => row.apiKey)).size);
  return {
    sessions,
    requests: records.length,
    toolCalls: records.filter((row) => row.toolCall).length,
    unsignedFunctionCalls: sum(records, 'unsignedCalls'),
    promptTokens: sum(records, 'promptTokens'),
    readTokens: sum(records, 'readTokens'),
    writeTokens: sum(records, 'write5mTokens') + sum(records, 'write1hTokens'),
    ratio: ratio(sum(later, 'readTokens'), sum(later, 'promptTokens')),
    ratioAllTurns: ratio(sum(records, 'readTokens'), sum(records, 'promptTokens')),
    reportedRatio: ratio(sum(laterReported, 'cachedTokens'), sum(laterReported, 'promptTokens')),
    maxBreakpoints: records.reduce((most, row) => Math.max(most, row.breakpoints ?? 0), 0),
    keysPerSession: keysPerSession.length ? keysPerSession.reduce((a, b) => a + b, 0) / keysPerSession.length : null,
    costPerSession: sessions ? costOf(records) / sessions : null,
    costUncachedPerSession: sessions ? costOf(records.map((row) => ({ ...row, readTokens: 0, write5mTokens: 0, write1hTokens: 0 }))) / sessions : null,
    billing: billingCheck(records, billed),
    errors,
  };
}

/**
 * What the gateway billed (its usage report for the pair's client key and
 * model) against what the upstream counted: the same prompt, cache reads and
 * writes, and the same cost at the same prices.
 */
function billingCheck(records, billed) {
  const truth = {
    promptTokens: sum(records, 'promptTokens'),
    readTokens: sum(records, 'readTokens'),
    writeTokens: sum(records, 'write5mTokens') + sum(records, 'write1hTokens'),
    write1hTokens: sum(records, 'write1hTokens'),
    cost: costOf(records),
  };
  if (!billed) return { truth, billed: null, matches: records.length === 0 };
  const seen = {
    promptTokens: billed.inputTokens + billed.cacheReadTokens + billed.cacheWriteTokens,
    readTokens: billed.cacheReadTokens,
    writeTokens: billed.cacheWriteTokens,
    write1hTokens: billed.cacheWrite1hTokens,
    cost: billed.cost,
  };
  const tokensMatch = ['promptTokens', 'readTokens', 'writeTokens', 'write1hTokens'].every((field) => seen[field] === truth[field]);
  const costMatches = Math.abs(seen.cost - truth.cost) <= 1e-6 * Math.max(1, truth.cost);
  return { truth, billed: seen, matches: tokensMatch && costMatches };
}

const thousands = (tokens) => `${Math.round(tokens / 1000)}k`;

/** "✓" when every setup's bill matches, else each setup that differs and how. */
function billingCells(setups) {
  const checks = Object.entries(setups).filter(([, setup]) => setup.billing);
  if (checks.length === 0) return '–';
  const wrong = checks.filter(([, setup]) => !setup.billing.matches);
  if (wrong.length === 0) return '✓';
  return wrong.map(([name, setup]) => `(${name}) ${billingCell(setup.billing)}`).join('; ');
}

/** "✓", or where the bill differs from the upstream's counts. */
function billingCell(check) {
  if (!check) return '–';
  if (check.matches) return '✓';
  if (!check.billed) return 'not in the usage report';
  const { truth, billed } = check;
  const parts = [];
  if (billed.readTokens !== truth.readTokens) parts.push(`reads ${thousands(billed.readTokens)} of ${thousands(truth.readTokens)}`);
  if (billed.writeTokens !== truth.writeTokens) parts.push(`writes ${thousands(billed.writeTokens)} of ${thousands(truth.writeTokens)}`);
  if (billed.write1hTokens !== truth.write1hTokens) parts.push(`1 h writes ${thousands(billed.write1hTokens)} of ${thousands(truth.write1hTokens)}`);
  if (billed.promptTokens !== truth.promptTokens) parts.push(`prompt ${thousands(billed.promptTokens)} of ${thousands(truth.promptTokens)}`);
  parts.push(`cost ${((billed.cost / truth.cost - 1) * 100).toFixed(1)} %`);
  return parts.join('; ');
}

const fixed = (value, digits = 2) => (value === null || value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));
const dollars = (value) => (value === null || value === undefined ? '–' : `$${value.toFixed(4)}`);
const percent = (value) => (value === null || value === undefined || Number.isNaN(value) ? '–' : `${(value * 100).toFixed(0)} %`);

/** Markdown: one row per client dialect × upstream type. */
export function renderMarkdown({ pairs, settings }) {
  const lines = [
    `Cache benchmark, ${settings.date}: ${settings.sessions} sessions of ${settings.turns} turns per pair and setup (streamed and plain alternating), ` +
      `Claude Code's breakpoints at ${settings.claudeCodeTtl}, gateway ${settings.entry}.`,
    '',
    'Cached-token ratio = cached prompt tokens ÷ prompt tokens, counted by the fake upstream, over turns 2–' +
      `${settings.turns} of each session. (a) one channel, one key; (b) 4 channels × 2 keys, \`SWITCHYARD_SESSION_AFFINITY=off\`; ` +
      '(c) 4 × 2, the default. "told" = the ratio in the usage the client received for (c). Cost = the prompt and reply of one session at the price table of bench/cache/prices.mjs. ' +
      '"billed": ✓ when, in every setup, the gateway\'s usage report for the pair has the upstream\'s prompt, cache-read and cache-write tokens and the same cost at the same prices.',
    '',
    '| client → upstream | path | (a) 1×1 | (b) 4×2 off | (c) 4×2 | c / a | told (c) | keys/session b / c | $/session a / b / c | saved c vs b | billed |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const pair of pairs) {
    const { a, b, c } = pair.setups;
    const cOverA = a?.ratio && c ? ratio(c.ratio ?? 0, a.ratio) : null;
    const saved = b?.costPerSession && c?.costPerSession !== null ? 1 - c.costPerSession / b.costPerSession : null;
    const failed = Object.entries(pair.setups)
      .filter(([, setup]) => setup.errors.length)
      .map(([name]) => name);
    lines.push(
      `| ${pair.client} → ${pair.upstream} | ${pair.native ? 'native' : 'translated'}${failed.length ? ` (errors in ${failed.join(', ')})` : ''} | ` +
        `${fixed(a?.ratio)} | ${fixed(b?.ratio)} | ${fixed(c?.ratio)} | ${fixed(cOverA)}${cOverA !== null && cOverA >= 0.95 ? ' ✓' : ''} | ${fixed(c?.reportedRatio)} | ` +
        `${fixed(b?.keysPerSession, 1)} / ${fixed(c?.keysPerSession, 1)} | ${dollars(a?.costPerSession)} / ${dollars(b?.costPerSession)} / ${dollars(c?.costPerSession)} | ${percent(saved)} | ${billingCells(pair.setups)} |`,
    );
  }
  const errors = pairs.flatMap((pair) => Object.entries(pair.setups).flatMap(([name, setup]) => setup.errors.map((error) => `- ${pair.client} → ${pair.upstream} (${name}): ${error}`)));
  if (errors.length) lines.push('', 'Failed sessions (first error of each):', '', ...errors);
  const unsigned = pairs.filter((pair) => Object.values(pair.setups).some((setup) => setup.unsignedFunctionCalls > 0));
  if (unsigned.length) {
    lines.push(
      '',
      `Gemini function calls replayed without their \`thoughtSignature\` (Gemini 3 would refuse these turns; the fake counts them): ${unsigned.map((pair) => `${pair.client} → ${pair.upstream}`).join(', ')}.`,
    );
  }
  return lines.join('\n');
}
