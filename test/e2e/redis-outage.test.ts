/**
 * Redis going away and coming back, on a private redis-server of this test
 * (never the shared one): `/readyz` says 503 with the reason while it is
 * away and 200 again after, the log gets exactly one structured line for
 * each moment and none of ioredis's own unstructured ones, and a key with
 * limits is refused with a 503 in its family's shape (the default `closed`
 * outage policy) until Redis is back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STORE_AWAY } from '../../src/http/rate-limits.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const LIMITED_KEY = 'sk-limited-redis-outage';
const QUOTA_KEY = 'sk-quota-redis-outage';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A redis-server of this test alone, in memory, answering once it says so. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Polls until `done` holds; a wait, not an assertion on how long it took (the test's timeout bounds it). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await sleep(50);
  }
}

const lines: { msg: string; level: number }[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
    callback();
  },
});

let port: number;
let redis: ChildProcess | undefined;
let gw: TestGateway;
const consoleErrors = vi.spyOn(console, 'error');

beforeAll(async () => {
  port = await freePort();
  redis = await startRedis(port);
  gw = await startGateway({
    settings: { redisUrl: `redis://127.0.0.1:${port}` },
    config: {
      keys: [
        { name: 'limited', key: LIMITED_KEY, rpm: 1000 },
        { name: 'with-quota', key: QUOTA_KEY, quota: 100 },
      ],
    },
    logger: pino({ level: 'info' }, logStream),
  });
});
afterAll(async () => {
  await gw?.close();
  if (redis) await stopRedis(redis);
  consoleErrors.mockRestore();
});

const readyz = async () => {
  const response = await fetch(`${gw.url}/readyz`);
  return { status: response.status, body: (await response.json()) as any };
};

const ask = (key = LIMITED_KEY) =>
  fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim', max_tokens: 20, messages: [{ role: 'user', content: 'hello' }] }),
  });

describe('Redis going away and coming back', () => {
  it('readiness, the log and a limited key tell the truth', async () => {
    const ready = await until(readyz, (answer) => answer.status === 200);
    expect(ready.body.checks).toEqual([
      { name: 'storage', ok: true },
      { name: 'redis', ok: true },
    ]);
    expect((await ask()).status).toBe(200);

    await stopRedis(redis!);
    const away = await until(readyz, (answer) => answer.status === 503);
    expect(away.body).toMatchObject({ status: 'unavailable', error: expect.stringMatching(/^Redis is unreachable since /) });
    expect(away.body.checks).toContainEqual({ name: 'redis', ok: false, reason: away.body.error });
    // A key with limits: refused in the family's own shape, saying why.
    const refused = await ask();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'api_error', message: STORE_AWAY } });
    const noQuota = await ask(QUOTA_KEY);
    expect(noQuota.status).toBe(503);
    expect(await noQuota.json()).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('cannot reach its quota store') } });
    // Several reconnections fail meanwhile; none of them is a line of its own.
    await sleep(1500);

    redis = await startRedis(port);
    const back = await until(readyz, (answer) => answer.status === 200);
    expect(back.body.checks).toContainEqual({ name: 'redis', ok: true });
    expect((await until(ask, (response) => response.status !== 503)).status).toBe(200);

    const redisLines = lines.filter((line) => /redis/i.test(line.msg));
    expect(redisLines.filter((line) => line.msg.startsWith('Redis went away'))).toHaveLength(1);
    expect(redisLines.filter((line) => line.msg === 'Redis came back')).toHaveLength(1);
    expect(redisLines).toHaveLength(2);
    // Nor does any other part of the gateway that uses Redis log its own failures.
    expect(lines.filter((line) => !line.msg.startsWith('Redis ') && /breaker sharing|change notifications|quota ledger/.test(line.msg))).toEqual([]);
    const unstructured = consoleErrors.mock.calls.filter((args) => String(args[0]).includes('[ioredis]'));
    expect(unstructured).toEqual([]);
  }, 60_000);
});
