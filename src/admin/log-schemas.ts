/** What the admin API answers about the request log and usage: rows, pages, details, sums and series. */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { ms, count, pageOf } from './schema-parts.js';

export const attemptSchema = builtOnce(() =>
  z.object({
    channel: z.string(),
    channelId: z.string(),
    at: ms(),
    durationMs: z.number(),
    status: z.number().int().nullable(),
    errorKind: z.string().nullable(),
    message: z.string().nullable(),
  }),
);

export const logRowSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    requestId: z.string(),
    keyId: z.string().nullable(),
    teamId: z.string().nullable().describe('The key’s team when the request was made; null: none (or a row older than teams).'),
    userId: z.string().nullable().describe('The key’s user when the request was made; null: none.'),
    family: z.string(),
    model: z.string(),
    upstreamModel: z.string().nullable(),
    channelId: z.string().nullable(),
    triedChannels: z.array(z.string()),
    httpStatus: z.number().int(),
    errorKind: z.string().nullable(),
    errorMessage: z.string().nullable(),
    stream: z.boolean(),
    inputTokens: count(),
    outputTokens: count(),
    cacheReadTokens: count(),
    cacheWriteTokens: count(),
    cacheWrite1hTokens: count().describe('The part of `cacheWriteTokens` written with the one-hour TTL.'),
    reasoningTokens: count(),
    estimated: z.boolean().describe('Some number was counted by the gateway (see `estimatedParts`; older rows have only this flag).'),
    estimatedParts: z
      .array(z.enum(['input', 'output']))
      .describe(
        'The numbers the gateway counted with its tokenizer because the upstream never reported them (a stream cut before its final usage): `input` (the prompt), `output` (what was delivered).',
      ),
    cost: z.number(),
    upstreamCost: z.number().nullable().describe("What the serving channel's provider charged, by its cost table; null when it has no price for the model."),
    unpriced: z.boolean().describe('Answered while the model had no price anywhere (operator or built-in catalogue): the cost of 0 is not a price.'),
    latencyMs: z.number(),
    firstByteMs: z.number().nullable(),
    clientIp: z.string().nullable(),
    translation: z.string().nullable(),
    attempts: z.array(attemptSchema()),
    images: count().nullable().describe('Images the request made (`/v1/images/*`), each billed at the model’s `perImage`; null for requests that make none (and rows older than the column).'),
    createdAt: ms(),
  }),
);

export const logPageSchema = builtOnce(() => pageOf(logRowSchema()));

export const logDetailSchema = builtOnce(() =>
  logRowSchema().extend({
    keyName: z.string().nullable(),
    teamName: z.string().nullable(),
    userEmail: z.string().nullable(),
    channelName: z.string().nullable(),
    translationPlan: z.object({ mapped: z.array(z.string()), ignored: z.array(z.string()) }),
    timings: z.object({
      totalMs: z.number(),
      firstByteMs: z.number().nullable(),
      queueMs: z.number().nullable().describe('Before the first channel was tried (authentication, limits, quota hold).'),
      upstreamMs: z.number().nullable().describe('The attempts together.'),
    }),
  }),
);

const upstreamCostSums = builtOnce(() => ({
  upstreamCost: z.number().describe("What the providers charged, by the serving channels' cost tables, for the requests whose cost is known."),
  costedRequests: count().describe('Requests whose upstream cost is known (their channel has a price for their model in its `costs`).'),
  costedSpend: z.number().describe('What clients were charged for those requests.'),
}));

const marginFields = builtOnce(() => ({
  cost: z.number().describe('What clients were charged (spend), refunds subtracted.'),
  ...upstreamCostSums(),
  margin: z.number().nullable().describe("`costedSpend − upstreamCost`; null when no request's upstream cost is known."),
  uncostedRequests: count().describe(
    'Requests a channel served whose upstream cost is unknown (no cost table, or no price in it for the model): the margin leaves them out. Requests no channel served cost nothing upstream and are not counted.',
  ),
}));

const ownerSums = builtOnce(() => ({ requests: count(), inputTokens: count(), outputTokens: count(), cost: z.number().describe('What clients were charged, refunds subtracted.') }));

export const usageSummarySchema = builtOnce(() =>
  z.object({
    data: z.array(
      z.object({
        keyId: z.string().nullable(),
        model: z.string(),
        requests: count(),
        inputTokens: count(),
        outputTokens: count(),
        cacheReadTokens: count(),
        cacheWriteTokens: count(),
        cacheWrite1hTokens: count().describe('The part of `cacheWriteTokens` written with the one-hour TTL.'),
        cost: z.number(),
        ...upstreamCostSums(),
        unpricedRequests: count().describe('Requests answered while the model had no price anywhere (operator or built-in catalogue): their cost counts as 0.'),
      }),
    ),
    channels: z
      .array(z.object({ channelId: z.string().nullable().describe('Null: requests no channel served.'), channelName: z.string().nullable(), requests: count(), ...marginFields() }))
      .describe('Spend, upstream cost and margin per serving channel, most spend first.'),
    teams: z
      .array(z.object({ teamId: z.string().nullable().describe('Null: requests made with keys of no team.'), teamName: z.string().nullable(), ...ownerSums() }))
      .describe('Requests, tokens and spend per team (as keys belonged when the requests were made), most spend first.'),
    users: z.array(z.object({ userId: z.string().nullable().describe('Null: requests made with keys of no user.'), email: z.string().nullable(), ...ownerSums() })).describe('The same per user.'),
    totals: z.object({ requests: count(), ...marginFields() }),
  }),
);

const usageTotals = builtOnce(() =>
  z.object({
    requests: count(),
    errors: count(),
    rateLimited: count(),
    failovers: count(),
    inputTokens: count(),
    outputTokens: count(),
    cost: z.number(),
    ...upstreamCostSums(),
    unpricedRequests: count().describe('Requests answered while their model had no price anywhere: their cost counts as 0.'),
    p50Ms: z.number().nullable(),
    p95Ms: z.number().nullable(),
    ttftP50Ms: z.number().nullable(),
  }),
);

export const usageSeriesSchema = builtOnce(() =>
  z.object({
    since: ms(),
    until: ms(),
    step: z.number().int(),
    by: z.enum(['none', 'family', 'model', 'channel', 'key', 'team', 'user']),
    totals: usageTotals(),
    series: z.array(z.object({ group: z.string(), label: z.string(), totals: usageTotals(), points: z.array(usageTotals().extend({ t: ms() })) })),
  }),
);
