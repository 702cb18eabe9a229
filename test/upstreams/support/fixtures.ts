/**
 * Replays the recorded upstream fixtures (test/fixtures/upstream) as HTTP
 * replies, framed the way the fixtures README describes for each dialect.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeReply } from './fake-upstream.js';

/** Kept in the repository with their source and license (see the README there). */
export const UPSTREAM_FIXTURES_DIR = process.env.SWITCHYARD_UPSTREAM_FIXTURES ?? fileURLToPath(new URL('../../fixtures/upstream', import.meta.url));

export type FixtureDialect = 'anthropic-messages' | 'openai-chat' | 'openai-responses' | 'gemini';

export function fixtureFiles(dialect: FixtureDialect): string[] {
  return readdirSync(join(UPSTREAM_FIXTURES_DIR, dialect)).sort();
}

export function fixtureText(dialect: FixtureDialect, file: string): string {
  return readFileSync(join(UPSTREAM_FIXTURES_DIR, dialect, file), 'utf8');
}

export function fixtureJson<T = any>(dialect: FixtureDialect, file: string): T {
  return JSON.parse(fixtureText(dialect, file)) as T;
}

/** The `data:` payloads of a `*.chunks.txt` file, in order (blank lines skipped). */
export function fixtureChunks(dialect: FixtureDialect, file: string): string[] {
  return fixtureText(dialect, file)
    .split('\n')
    .filter((line) => line.trim() !== '');
}

export type LineEnding = '\n' | '\r\n' | '\r';

/** One SSE frame per fixture line (plus `[DONE]` for openai-chat), per the README's framing table. */
export function sseFrames(dialect: FixtureDialect, file: string, lineEnding: LineEnding = '\n'): string[] {
  const named = dialect === 'anthropic-messages' || dialect === 'openai-responses';
  const frames = fixtureChunks(dialect, file).map((line) => {
    const event = named ? `event: ${(JSON.parse(line) as { type: string }).type}\n` : '';
    return `${event}data: ${line}\n\n`;
  });
  if (dialect === 'openai-chat') frames.push('data: [DONE]\n\n');
  return lineEnding === '\n' ? frames : frames.map((frame) => frame.replace(/\n/g, lineEnding));
}

export interface SseReplyOptions {
  lineEnding?: LineEnding;
  /** Re-slice the whole stream into pieces of this many bytes (to split events and lines). */
  pieceBytes?: number;
  /** Destroy the connection after this many pieces. */
  cutAfterChunks?: number;
}

export function sseReply(dialect: FixtureDialect, file: string, options: SseReplyOptions = {}): FakeReply {
  let chunks: Array<string | Buffer> = sseFrames(dialect, file, options.lineEnding);
  if (options.pieceBytes) {
    const all = Buffer.from(chunks.join(''), 'utf8');
    chunks = [];
    for (let at = 0; at < all.length; at += options.pieceBytes) chunks.push(all.subarray(at, at + options.pieceBytes));
  }
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks, cutAfterChunks: options.cutAfterChunks };
}

export function jsonReply(dialect: FixtureDialect, file: string, status = 200): FakeReply {
  return { status, headers: { 'content-type': 'application/json' }, body: fixtureText(dialect, file) };
}
