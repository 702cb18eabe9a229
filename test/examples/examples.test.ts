/**
 * Every file under examples/ runs, as a user would run it, against a gateway
 * on the built-in simulator: a child process with only SWITCHYARD_URL and
 * SWITCHYARD_KEY set, which must exit 0 and print the answer.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/config/env.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const run = promisify(execFile);
const examplesDir = fileURLToPath(new URL('../../examples', import.meta.url));
const KEY = 'sk-examples-0000001';

let gw: TestGateway;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'switchyard-examples-'));
  const tasks = { ...settingsFromEnv({}).tasks, tickMs: 20, firstPollMs: 50, maxPollMs: 200 };
  gw = await startGateway({
    // A fast simulator channel so image and video tasks finish in well under a second.
    config: { channels: [{ name: 'sim', type: 'simulator', settings: { taskSeconds: 0.3, videoSize: 64 } }], keys: [{ name: 'examples', key: KEY }] },
    settings: { tasks },
  });
});
afterAll(async () => {
  await gw?.close();
  await rm(scratch, { recursive: true, force: true });
});

/** Runs one example the way its header says, in an empty working directory. */
async function runExample(file: string, extraEnv: Record<string, string> = {}) {
  const full = path.join(examplesDir, file);
  const command = file.endsWith('.sh') ? 'sh' : process.execPath;
  const { stdout, stderr } = await run(command, [full], {
    cwd: scratch,
    env: { PATH: process.env.PATH ?? '', SWITCHYARD_URL: gw.url, SWITCHYARD_KEY: KEY, ...extraEnv },
    timeout: 60_000,
  });
  return { stdout, stderr };
}

/** What each example must print; a new example without an entry fails the last test. */
const expected: Record<string, (stdout: string) => void> = {
  'messages.mjs': (out) => expect(out).toMatch(/^You said: "Hello"\./),
  'messages-stream.mjs': (out) => expect(out).toMatch(/^You said: "Tell me a short story"\..*\n\[stop_reason: end_turn, output tokens: \d+\]\n$/s),
  'generate.mjs': (out) => expect(out).toMatch(/^You said: "Hello"\./),
  'responses.mjs': (out) => expect(out).toMatch(/^You said: "Hello"\..*\nYou said: "And again"\./s),
  'responses-websocket.mjs': (out) => expect(out).toMatch(/^You said: "Hello"\..*\nYou said: "And again"\./s),
  'ai-sdk.mjs': (out) => expect(out).toMatch(/^You said: "Hello"\./),
  'videos.mjs': (out) => expect(out).toMatch(/^created \d+\nsucceeded: \d+ bytes written to video\.mp4\n$/),
  'images.sh': (out) => expect(out).toMatch(/^task \d{16} submitted\nSUCCESS: http:\/\/127\.0\.0\.1:\d+\/ig\/image\/\S+\n$/),
};

describe('examples/', () => {
  for (const [file, check] of Object.entries(expected)) {
    it(`${file} exits 0 and prints the answer`, async () => {
      const { stdout } = await runExample(file);
      check(stdout);
    });
  }

  it('the video example wrote a real file', async () => {
    expect((await stat(path.join(scratch, 'video.mp4'))).size).toBeGreaterThan(1000);
  });

  it('every example is run above', async () => {
    const files = (await readdir(examplesDir)).filter((name) => name.endsWith('.mjs') || name.endsWith('.sh'));
    expect(files.sort()).toEqual(Object.keys(expected).sort());
  });
});
