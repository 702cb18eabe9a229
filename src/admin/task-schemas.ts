/** What the admin API answers about tasks: a task, a page of them, one with its history and callbacks. */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { ms, nullableMs, count, pageOf } from './schema-parts.js';

export const taskViewSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    family: z.string(),
    action: z.string(),
    status: z.string(),
    progress: z.number(),
    keyId: z.string(),
    channelId: z.string(),
    model: z.string().nullable(),
    prompt: z.string().nullable(),
    cost: z.number(),
    billing: z.string(),
    failReason: z.string().nullable(),
    submitTime: ms(),
    startTime: nullableMs(),
    finishTime: nullableMs(),
    pollCount: count(),
    createdAt: ms(),
    media: z.array(z.object({ url: z.string(), contentType: z.string(), width: z.number().nullable(), height: z.number().nullable(), role: z.string().nullable() })),
    buttons: z.array(z.object({ customId: z.string(), label: z.string() })),
  }),
);

export const taskPageSchema = builtOnce(() => pageOf(taskViewSchema()));

export const taskDetailSchema = builtOnce(() =>
  taskViewSchema().extend({
    clientView: z.unknown().describe('The task exactly as its client sees it.'),
    history: z.array(z.object({ at: ms(), event: z.string(), detail: z.string().nullable() })),
    deliveries: z.array(
      z.object({
        id: z.string(),
        url: z.string().describe('The callback address, without its query string.'),
        event: z.string(),
        final: z.boolean(),
        status: z.string(),
        attempts: count(),
        maxAttempts: count(),
        lastStatus: z.number().nullable(),
        lastError: z.string().nullable(),
        deliveredAt: nullableMs(),
        createdAt: ms(),
      }),
    ),
  }),
);
