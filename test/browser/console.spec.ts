/**
 * The web console in a real browser (Chromium through playwright-core),
 * against a gateway started here on a scratch data directory with the
 * simulator upstream. Not part of `npm test`: `bash test/browser/run.sh`.
 *
 * Walks what an operator does: a wrong admin key is refused, the right one
 * logs in; a key is created and its secret shown once; a chat request made
 * with it appears in the request logs with its detail; the overview charts
 * have data; an image task's picture shows and a video plays in Tasks; a
 * channel test answers and a refused channel shows why; the playground
 * streams an answer; a bedrock and a vertex channel are each created in one
 * form and serve a request through a loopback fake of the service (the ones
 * the end-to-end tests use); an openai-chat preset's defaults show in the
 * form; a price is set, edited, looked up and deleted; a team budget is
 * created and a request of the team taken off what remains; a viewer's
 * personal admin token sees only the views a viewer may use; single sign-on
 * through a real OpenID Connect provider (oidc-provider on loopback) signs a
 * person in with the role their group maps to, and logging out ends the
 * session. Throughout, the page logs no error and requests nothing from
 * another origin (but the provider's, while it shows its own pages).
 * Screenshots go to test/browser/screenshots/. Code run in
 * the page reaches the DOM through `globalThis`: this file is type-checked
 * without the DOM types.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startFakeBedrock } from '../support/fake-bedrock.js';
import { startFakeVertex } from '../support/fake-vertex.js';
import { startGateway, TEST_ADMIN_KEY, type TestGateway } from '../support/gateway.js';
import { createAdminToken } from '../../src/admin/admin-tokens.js';

const BROWSER_ACTOR = { kind: 'cli', id: 'browser test', name: 'browser test', requestId: null, clientIp: null } as const;
import { freePort, startOidcProvider } from '../support/oidc-provider.js';

const SHOTS = path.join('test', 'browser', 'screenshots');
const MODEL = 'console-sim-chat';

const config = {
  channels: [{ name: 'sim', type: 'simulator', priority: 10, models: ['*'], settings: { taskSeconds: 0.3, imageSize: 256, videoSize: 96 } }],
  prices: { 'console-*': { input: 3, output: 15 }, 'ig_*': { perCall: 0.04 } },
  sso: { roles: { 'console-admins': 'admin' } },
};

/** Chromium on PATH (Debian's package), else its usual place. */
function chromiumPath(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const candidate = path.join(dir, name);
      if (dir && existsSync(candidate)) return candidate;
    }
  }
  return '/usr/bin/chromium';
}

const steps: Array<[string, number]> = [];
const problems: string[] = [];
async function step(name: string, run: () => Promise<void>): Promise<void> {
  const started = Date.now();
  try {
    await run();
  } catch (error) {
    console.error(`✗ ${name}`);
    if (problems.length > 0) console.error(problems.join('\n'));
    throw error;
  }
  steps.push([name, Date.now() - started]);
  console.log(`✓ ${name} (${Date.now() - started} ms)`);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** In the page: the image `selector` names has loaded, from a blob: URL (media behind the admin key). */
function imageShown(selector: string): boolean {
  const image = (globalThis as any).document.querySelector(selector);
  return !!image && image.complete && image.naturalWidth > 0 && String(image.src).startsWith('blob:');
}

/** Polls `done` until it says so (it may throw to stop early). */
async function waitFor(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function waitForImageTask(gw: TestGateway, key: string, id: string): Promise<void> {
  await waitFor(async () => {
    const response = await fetch(`${gw.url}/ig/task/${id}/fetch`, { headers: { authorization: `Bearer ${key}` } });
    const task = (await response.json()) as { status: string; failReason?: string };
    assert.notEqual(task.status, 'FAILURE', `image task failed: ${task.failReason}`);
    return task.status === 'SUCCESS';
  }, `image task ${id}`);
}

/** A channel as `GET /admin/channels` lists it, by name. */
async function storedChannel(gw: TestGateway, name: string): Promise<Record<string, any>> {
  const channels = (await gw.admin('GET', '/channels')).body as { data: Array<Record<string, any>> };
  const channel = channels.data.find((entry) => entry.name === name);
  assert.ok(channel, `channel ${name} is stored`);
  return channel;
}

/** One chat request through the gateway with its own client key; the answer's text. */
async function chat(gw: TestGateway, model: string): Promise<string> {
  const response = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.clientKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] }),
  });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return (JSON.parse(text) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content;
}

/** Opens the new-channel form with `type` chosen and its settings' fields shown. */
async function newChannel(page: Page, name: string, type: string): Promise<void> {
  await page.click('nav >> text=Channels');
  await page.click('text=New channel');
  await page.fill('dialog input[name=name]', name);
  await page.selectOption('dialog select[name=type]', type);
  await page.locator('dialog input[name="settings.endpoint"], dialog select[name="settings.preset"]').first().waitFor();
}

async function main(): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  // The cloud channels the console creates call these; tried before the simulator by their priority.
  const bedrock = await startFakeBedrock();
  const vertex = await startFakeVertex({ project: 'console-project', location: 'europe-west4' });
  // The provider must know the console's callback address before the gateway starts.
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/admin/auth/oidc/callback`;
  const provider = await startOidcProvider({ redirectUris: [callback], accounts: { grace: { email: 'grace@example.test', name: 'Grace', groups: ['console-admins'] } } });
  const gw = await startGateway({ config, env: provider.env(callback), settings: { port } });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
  const origin = new URL(gw.url).origin;
  // The provider's own pages are its business (they ask for a web font): only the console's requests are checked.
  const atProvider = (url: string) => url.startsWith(provider.issuer);
  try {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (atProvider(page.url())) return;
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // The sign-in probe answers 401 while nobody is signed in, and the browser logs it as an error; any other 401 is a problem.
    let otherUnauthorized = 0;
    page.on('response', (response) => {
      if (response.status() === 401 && !response.url().endsWith('/admin/auth/session')) otherUnauthorized++;
    });
    page.on('request', (request) => {
      const url = request.url();
      if (atProvider(url) || atProvider(request.frame().url())) return;
      if (!url.startsWith('blob:') && !url.startsWith('data:') && new URL(url).origin !== origin) problems.push(`off-origin request: ${url}`);
    });
    page.setDefaultTimeout(10_000);

    await step('a wrong admin key is refused with a visible error', async () => {
      await page.goto(`${gw.url}/console`);
      await page.fill('input[name=adminKey]', 'sk-admin-not-this-one');
      await page.click('button[type=submit]');
      const error = page.locator('.login [role=alert]');
      await error.waitFor();
      assert.match(await error.innerText(), /admin key/i);
      await shot(page, 'login-refused');
      // 401s the login provokes are expected; the browser reports them as console errors.
      problems.splice(0, problems.length, ...problems.filter((problem) => !problem.includes('401')));
      otherUnauthorized = 0;
    });

    await step('the right admin key logs in', async () => {
      await page.fill('input[name=adminKey]', TEST_ADMIN_KEY);
      await page.click('button[type=submit]');
      await page.locator('nav').waitFor();
      assert.equal(await page.evaluate("sessionStorage.getItem('switchyard.adminKey')"), TEST_ADMIN_KEY);
    });

    let secret = '';
    await step('a new key is listed and its secret shown once', async () => {
      await page.click('nav >> text=Keys');
      await page.click('text=New key');
      await page.fill('dialog input[name=name]', 'browser-team');
      await page.fill('dialog input[name=quota]', '5');
      await page.fill('dialog input[name=rpm]', '600');
      await page.click('dialog button[type=submit]');
      secret = (await page.locator('[data-testid=secret]').innerText()).trim();
      assert.ok(secret.length >= 8, 'a secret is shown');
      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
      assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret);
      await shot(page, 'key-secret');
      await page.getByRole('button', { name: 'Done', exact: true }).click();
      const row = page.locator('tr', { hasText: 'browser-team' });
      await row.waitFor();
      assert.match(await row.innerText(), /active/);
      assert.equal(await page.locator('[data-testid=secret]').count(), 0, 'the secret is gone once the dialog closes');
      assert.ok(!(await page.content()).includes(secret), 'the secret is nowhere on the page');
      await shot(page, 'keys');
    });

    await step('a chat request made with the key shows in the logs, with its detail', async () => {
      const response = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hello from the browser test' }] }),
      });
      assert.equal(response.status, 200, await response.text());
      await page.click('nav >> text=Request logs');
      const row = page.locator('tr[data-log-id]', { hasText: MODEL });
      await row.waitFor();
      assert.match(await row.innerText(), /200/);
      assert.match(await row.innerText(), /browser-team/);
      assert.match(await row.innerText(), /simulated/, 'a row a simulator channel served is marked');
      await shot(page, 'logs');
      // A filter the request does not match empties the page; clearing it brings the row back.
      await page.selectOption('select[name=status]', '5xx');
      await page.locator('text=No requests match.').waitFor();
      await page.selectOption('select[name=status]', '');
      await row.waitFor();
      await row.click();
      const detail = page.locator('[data-testid=log-detail]');
      await detail.waitFor();
      const text = await detail.innerText();
      assert.match(text, new RegExp(MODEL));
      assert.match(text, /chat-completions/);
      assert.match(text, /simulated/);
      await page.locator('[data-testid=attempts]').waitFor();
      assert.match(await page.locator('[data-testid=attempts]').innerText(), /sim/);
      await shot(page, 'log-detail');
    });

    await step("the logs page a hundred rows at a time, by the server's cursor", async () => {
      const send = () =>
        fetch(`${gw.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${gw.clientKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'console-paging', messages: [{ role: 'user', content: 'one of many' }] }),
        }).then((response) => response.text());
      for (let batch = 0; batch < 5; batch++) await Promise.all(Array.from({ length: 30 }, send));
      await page.click('a[href="#/logs"]');
      await page.fill('input[name=model]', 'console-paging');
      await page.click('text=Apply');
      const rows = page.locator('tr[data-log-id]');
      await page.locator('tr[data-log-id]:nth-child(100)').waitFor();
      assert.equal(await rows.count(), 100);
      const firstPage = await rows.first().getAttribute('data-log-id');
      await page.click('text=Older →');
      await page.locator('text=page 2').waitFor();
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('tr[data-log-id]').length === 50);
      assert.notEqual(await rows.first().getAttribute('data-log-id'), firstPage);
      assert.equal(await page.isDisabled('text=Older →'), true);
      await page.click('text=← Newer');
      await page.locator('text=page 1').waitFor();
      await page.waitForFunction((id) => (globalThis as any).document.querySelector('tr[data-log-id]')?.getAttribute('data-log-id') === id, firstPage);
    });

    await step('the overview charts the request', async () => {
      await page.click('nav >> text=Overview');
      await page.locator('.uplot canvas').first().waitFor();
      const tiles = await page.locator('[data-testid=totals]').innerText();
      assert.match(tiles, /Requests\s*\n?\s*[1-9]/);
      const charts = await page.locator('.chart').count();
      assert.ok(charts >= 6, `${charts} charts`);
      await shot(page, 'overview');
      await page.selectOption('select[name=by]', 'key');
      await page.locator('.chart[data-chart=Requests] .u-legend', { hasText: 'browser-team' }).waitFor();
      await shot(page, 'overview-by-key');
    });

    await step('an image task shows its picture in Tasks', async () => {
      const response = await fetch(`${gw.url}/ig/submit/imagine`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'a lighthouse at dawn' }),
      });
      const submitted = (await response.json()) as { code: number; result: string };
      assert.equal(submitted.code, 1, JSON.stringify(submitted));
      await waitForImageTask(gw, secret, submitted.result);
      await page.click('nav >> text=Tasks');
      const card = page.locator(`[data-task-id="${submitted.result}"]`);
      await card.waitFor();
      await page.waitForFunction(imageShown, `[data-task-id="${submitted.result}"] img`);
      await shot(page, 'tasks');
      await card.click();
      await page.locator('[data-testid=task-detail]').waitFor();
      await page.waitForFunction(imageShown, '[data-testid=task-detail] img.media');
      assert.match(await page.locator('[data-testid=task-detail]').innerText(), /lighthouse/);
      await shot(page, 'task-detail');
    });

    await step('a video task plays in Tasks', async () => {
      const response = await fetch(`${gw.url}/v1/videos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sora-2', prompt: 'waves on a pier', seconds: '2', size: '720x1280' }),
      });
      const created = (await response.json()) as { id: string };
      assert.equal(response.status, 201, JSON.stringify(created));
      await waitFor(async () => {
        const video = (await (await fetch(`${gw.url}/v1/videos/${created.id}`, { headers: { authorization: `Bearer ${secret}` } })).json()) as { status: string };
        assert.notEqual(video.status, 'failed');
        return video.status === 'succeeded';
      }, `video ${created.id} to finish`);
      await page.click('nav >> text=Tasks');
      await page.getByRole('tab', { name: 'videos' }).click();
      await page.locator('[data-task-id]').first().click();
      await page.locator('[data-testid=task-detail]').waitFor();
      // Metadata read from the blob: the MP4 the gateway stored is playable.
      await page.waitForFunction(() => {
        const video = (globalThis as any).document.querySelector('[data-testid=task-detail] video');
        return !!video && String(video.src).startsWith('blob:') && video.readyState >= 1 && video.duration > 1;
      });
      assert.match(await page.locator('[data-testid=task-detail]').innerText(), /waves on a pier/);
      await shot(page, 'video-detail');
    });

    await step('the playground streams an answer with a new playground key', async () => {
      await page.click('nav >> text=Playground');
      await page.click('text=Create a playground key');
      await page.waitForFunction(() => (globalThis as any).document.querySelector('input[name=clientKey]').value.length > 0);
      await page.selectOption('select[name=family]', 'chat-completions');
      await page.fill('input[name=model]', MODEL);
      assert.equal(await page.isChecked('input[name=stream]'), true);
      await page.fill('textarea[name=prompt]', 'Tell me about lighthouses.');
      await page.click('form button[type=submit]');
      await page.locator('[data-testid=answer][data-done=true]').waitFor();
      const answer = (await page.locator('[data-testid=answer]').innerText()).trim();
      assert.ok(answer.length > 0, 'the answer has text');
      assert.match(await page.locator('[data-testid=raw-response]').innerText(), /data: /);
      await shot(page, 'playground');
    });

    await step('the playground answers plain Messages requests too', async () => {
      await page.selectOption('select[name=family]', 'messages');
      await page.uncheck('input[name=stream]');
      await page.click('form button[type=submit]');
      await page.locator('[data-testid=answer][data-done=true]').waitFor();
      assert.ok((await page.locator('[data-testid=answer]').innerText()).trim().length > 0);
      assert.match(await page.locator('[data-testid=raw-response]').innerText(), /"type":\s*"message"/);
    });

    await step("a channel test answers, and a refused channel shows the server's complaint at its field", async () => {
      await page.click('nav >> text=Channels');
      // The channel that served this run's requests shows its last hour: requests and latency.
      const lastHour = page.locator('tr', { hasText: 'sim' }).locator('td.last-hour');
      await lastHour.locator('text=/\\d+ req/').waitFor();
      assert.match(await lastHour.innerText(), /\d+ req · \d+ ms \/ \d+ ms/);
      await page.locator('tr', { hasText: 'sim' }).getByRole('button', { name: 'Test' }).click();
      await page.fill('dialog input[name=model]', MODEL);
      await page.click('dialog button[type=submit]');
      const result = page.locator('[data-testid=test-result]');
      await result.waitFor();
      assert.match(await result.innerText(), /ok/);
      await shot(page, 'channel-test');
      await page.getByRole('button', { name: 'Close' }).click();
      await page.click('text=New channel');
      await page.fill('dialog input[name=name]', 'broken');
      await page.selectOption('dialog select[name=type]', 'openai-chat');
      // The type's settings are fields of their own, from its JSON Schema: a choice is a select, a switch a checkbox.
      await page.locator('dialog select[name="settings.systemRole"]').waitFor();
      assert.equal(await page.locator('dialog input[name="settings.streamUsage"]').isChecked(), true, 'a setting on by default starts checked');
      assert.match(await page.locator('dialog .field:has(input[name=baseUrl])').innerText(), /required/);
      await page.fill('dialog input[name=baseUrl]', 'ftp://example.invalid');
      await page.click('dialog button[type=submit]');
      const complaint = page.locator('dialog .field.invalid:has(input[name=baseUrl])');
      await complaint.waitFor();
      assert.match(await complaint.innerText(), /baseUrl|http/i);
      await shot(page, 'channel-refused');
      await page.getByRole('button', { name: 'Close' }).click();
      // A cloud type: its settings from its JSON Schema, and its key asked for (the secret is a key, never a setting).
      await page.click('text=New channel');
      await page.selectOption('dialog select[name=type]', 'azure-openai');
      await page.locator('dialog select[name="settings.auth"]').waitFor();
      await page.locator('dialog input[name="settings.tenantId"]').waitFor();
      assert.equal(await page.locator('dialog textarea[name=apiKey]').getAttribute('required'), '', 'the key is required');
      assert.match(await page.locator('dialog .field:has(textarea[name=apiKey])').innerText(), /api-key.*Entra ID application's client secret/);
      await page.getByRole('button', { name: 'Close' }).click();
      // The 400 the refused create provoked is the expected one.
      problems.splice(0, problems.length, ...problems.filter((problem) => !problem.includes('400')));
    });

    await step('a bedrock channel is created in one form, stored as given, and serves a request', async () => {
      await newChannel(page, 'console-bedrock', 'bedrock');
      assert.match(await page.locator('dialog .field:has(textarea[name=apiKey])').innerText(), /ACCESS_KEY_ID:SECRET_ACCESS_KEY\[:SESSION_TOKEN\].*Bedrock API key/);
      await page.fill('dialog textarea[name=apiKey]', bedrock.accessKey);
      await page.fill('dialog input[name=models]', 'claude-console-bedrock');
      await page.fill('dialog textarea[name=modelMapping]', '{"claude-console-bedrock": "us.anthropic.claude-sonnet-4-5-20250929-v1:0"}');
      await page.fill('dialog input[name=priority]', '20');
      await page.fill('dialog input[name="settings.region"]', bedrock.region);
      await page.fill('dialog input[name="settings.endpoint"]', bedrock.origin);
      await shot(page, 'channel-bedrock');
      await page.click('dialog button[type=submit]');
      await page.locator('main tr', { hasText: 'console-bedrock' }).waitFor();
      const stored = await storedChannel(gw, 'console-bedrock');
      assert.deepEqual(
        { type: stored.type, models: stored.models, modelMapping: stored.modelMapping, priority: stored.priority, settings: stored.settings, apiKeyCount: stored.apiKeyCount },
        {
          type: 'bedrock',
          models: ['claude-console-bedrock'],
          modelMapping: { 'claude-console-bedrock': 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' },
          priority: 20,
          // Only what was typed: the checkboxes left at their defaults are not written.
          settings: { region: bedrock.region, endpoint: bedrock.origin },
          apiKeyCount: 1,
        },
      );
      assert.ok(!JSON.stringify(stored).includes(bedrock.accessKey.split(':')[1]!), 'the secret is never answered');
      assert.match(await chat(gw, 'claude-console-bedrock'), /Bedrock/);
      assert.deepEqual(bedrock.refusals, [], 'the fake took the signature');
      const request = bedrock.requests.at(-1);
      assert.equal(request?.operation, 'invoke');
      assert.match(String(request?.headers.authorization), new RegExp(`Credential=AKIDSWITCHYARDTEST/\\d{8}/${bedrock.region}/bedrock/`));
    });

    await step('a vertex channel takes a service-account JSON pasted whole, and serves a request', async () => {
      await newChannel(page, 'console-vertex', 'vertex');
      assert.match(await page.locator('dialog .field:has(textarea[name=apiKey])').innerText(), /service-account JSON/);
      // As an operator pastes the downloaded key file: several lines, one key.
      const keyFile = JSON.stringify(JSON.parse(vertex.serviceAccountKey()), null, 2);
      await page.fill('dialog textarea[name=apiKey]', keyFile);
      await page.fill('dialog input[name=models]', 'gemini-console-vertex');
      await page.fill('dialog textarea[name=modelMapping]', '{"gemini-console-vertex": "gemini-2.5-flash"}');
      await page.fill('dialog input[name=priority]', '20');
      await page.fill('dialog input[name="settings.location"]', vertex.location);
      await page.fill('dialog input[name="settings.project"]', vertex.project);
      await page.fill('dialog input[name="settings.endpoint"]', vertex.origin);
      await page.click('dialog button[type=submit]');
      await page.locator('main tr', { hasText: 'console-vertex' }).waitFor();
      const stored = await storedChannel(gw, 'console-vertex');
      assert.equal(stored.type, 'vertex');
      assert.equal(stored.apiKeyCount, 1, 'the key file is one key');
      assert.deepEqual(stored.settings, { project: vertex.project, location: vertex.location, endpoint: vertex.origin });
      assert.deepEqual(stored.modelMapping, { 'gemini-console-vertex': 'gemini-2.5-flash' });
      assert.ok(!JSON.stringify(stored).includes('PRIVATE KEY'), 'the key is never answered');
      assert.ok((await chat(gw, 'gemini-console-vertex')).length > 0);
      assert.equal(vertex.tokensIssued, 1, 'the key signed a token grant the fake took');
      assert.match(vertex.requests.at(-1)?.url ?? '', new RegExp(`^/v1/projects/${vertex.project}/locations/${vertex.location}/publishers/google/models/gemini-2.5-flash:generateContent`));
    });

    await step("an openai-chat preset's defaults show in the form, and only what differs is stored", async () => {
      await newChannel(page, 'console-deepseek', 'openai-chat');
      const reasoning = page.locator('dialog input[name="settings.reasoningContent"]');
      assert.equal(await reasoning.isChecked(), false, 'off by the schema');
      await page.selectOption('dialog select[name="settings.preset"]', 'deepseek');
      assert.equal(await reasoning.isChecked(), true, "on by the preset's default");
      assert.match(await page.locator('dialog label.check:has(input[name="settings.reasoningContent"])').innerText(), /preset deepseek sets the default/);
      assert.match(await page.locator('dialog select[name="settings.maxTokensField"] option[value=""]').innerText(), /max_tokens\)/);
      assert.equal(await page.locator('dialog input[name="settings.promptCacheKey"]').isChecked(), false);
      await shot(page, 'channel-preset');
      await page.fill('dialog input[name=models]', 'deepseek-chat');
      await page.uncheck('dialog input[name=enabled]');
      await page.click('dialog button[type=submit]');
      await page.locator('main tr', { hasText: 'console-deepseek' }).waitFor();
      assert.deepEqual((await storedChannel(gw, 'console-deepseek')).settings, { preset: 'deepseek' });
    });

    await step('prices, settings and channels render', async () => {
      for (const view of ['Channels', 'Prices', 'Settings']) {
        await page.click(`nav >> text=${view}`);
        await page.locator('main h1', { hasText: view }).waitFor();
        await page.locator('main table').first().waitFor();
        await shot(page, view.toLowerCase());
      }
      // The view swaps after the click; until it does, `main` still holds the
      // settings' tables, so wait for the prices' heading and their own row.
      await page.click('nav >> text=Prices');
      await page.locator('main h1', { hasText: 'Prices' }).waitFor();
      const prices = page.locator('main table', { hasText: 'console-*' });
      await prices.waitFor();
      // The config file's price, marked as the file's.
      assert.match(await prices.innerText(), /console-\*\s+config\s+config file\s+\$3\s+\$15/);
    });

    await step('a price is set, edited, looked up and deleted', async () => {
      const row = page.locator('main tr[data-model="browser-*"]');
      await page.click('text=New price');
      await page.fill('dialog input[name=model]', 'browser-*');
      await page.fill('dialog input[name=input]', '2');
      await page.fill('dialog input[name=output]', '8');
      await page.click('dialog button[type=submit]');
      await row.waitFor();
      assert.match(await row.innerText(), /browser-\*\s+admin\s+\$2\s+\$8/);

      await row.getByRole('button', { name: 'Edit' }).click();
      await page.fill('dialog input[name=input]', '2.5');
      await page.fill('dialog input[name=cacheWrite1h]', '4');
      await page.fill('dialog textarea[name=tiers]', '[{"above": 1000, "input": 5}]');
      await shot(page, 'price-form');
      await page.click('dialog button[type=submit]');
      await waitFor(async () => /\$2\.5\s+\$8/.test(await row.innerText()), 'the edited price');
      const stored = (await (await fetch(`${gw.url}/admin/prices`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } })).json()) as { data: Array<{ model: string; price: unknown }> };
      assert.deepEqual(stored.data.find((entry) => entry.model === 'browser-*')?.price, { input: 2.5, output: 8, cacheWrite1h: 4, tiers: [{ above: 1000, input: 5 }] });

      await page.fill('input[name=quoteModel]', 'browser-model');
      await page.click('.price-quote button[type=submit]');
      const answer = page.locator('.quote-answer');
      await answer.waitFor();
      assert.match(await answer.innerText(), /matched by browser-\*/);
      // With no catalogue set the section says so; with one, its table lists models.
      await page.locator('.price-catalogue :is(p.note, table)').first().waitFor();
      await shot(page, 'prices-edited');

      await row.getByRole('button', { name: 'Delete' }).click();
      await row.getByRole('button', { name: 'Confirm delete' }).click();
      await row.waitFor({ state: 'detached' });
    });

    await step('the audit log lists the price changes, and one shows its before and after', async () => {
      await page.click('nav >> text=Audit log');
      await page.locator('main h1', { hasText: 'Audit log' }).waitFor();
      await page.selectOption('select[name=actor]', 'admin-key');
      await page.fill('input[name=action]', 'price.');
      await page.click('main form.filters button[type=submit]');
      const rows = page.locator('main tr[data-audit-id]');
      await waitFor(async () => (await rows.count()) === 3, 'the three price changes made here (the config file set its own)');
      assert.match(await rows.first().innerText(), /admin-key.*price\.delete\s+price browser-\*/s);
      await rows.nth(1).click();
      const diff = page.locator('[data-testid=audit-diff]');
      await diff.waitFor();
      assert.match(await diff.locator('tr.changed', { hasText: 'price' }).innerText(), /"input":2\b.*"input":2\.5/s);
      await shot(page, 'audit-detail');
      await page.click('text=← Back to the audit log');
      await page.locator('main h1', { hasText: 'Audit log' }).waitFor();
    });

    await step('a user and a team are made, the user a member, a key made for them, their requests filtered', async () => {
      await page.click('nav >> text=Users');
      await page.click('text=New user');
      await page.fill('dialog input[name=email]', 'Ana@Example.com');
      await page.fill('dialog input[name=name]', 'Ana');
      await page.click('dialog button[type=submit]');
      await page.locator('main tr[data-user="ana@example.com"]').waitFor();

      await page.click('nav >> text=Teams');
      await page.click('text=New team');
      await page.fill('dialog input[name=name]', 'browser-research');
      await page.click('dialog button[type=submit]');
      const team = page.locator('main tr[data-team="browser-research"]');
      await team.waitFor();
      await team.getByRole('button', { name: 'Members' }).click();
      await page.locator('dialog select[name=userId] option', { hasText: 'ana@example.com' }).waitFor({ state: 'attached' });
      await page.selectOption('dialog select[name=userId]', { label: 'ana@example.com' });
      await page.selectOption('dialog select[name=role]', 'admin');
      await page.click('dialog >> text=Add member');
      await page.locator('dialog tr[data-member="ana@example.com"]', { hasText: 'admin' }).waitFor();
      await shot(page, 'team-members');
      await page.getByRole('button', { name: 'Close' }).click();
      await waitFor(async () => (await team.locator('td.num').first().innerText()) === '1', 'the team counts its member');

      await page.click('nav >> text=Keys');
      await page.click('text=New key');
      await page.fill('dialog input[name=name]', 'ana-research');
      await page.locator('dialog select[name=teamId] option', { hasText: 'browser-research' }).waitFor({ state: 'attached' });
      await page.selectOption('dialog select[name=teamId]', { label: 'browser-research' });
      await page.locator('dialog select[name=userId] option', { hasText: 'ana@example.com' }).waitFor({ state: 'attached' });
      await page.selectOption('dialog select[name=userId]', { label: 'ana@example.com' });
      await page.click('dialog button[type=submit]');
      const anaSecret = (await page.locator('[data-testid=secret]').innerText()).trim();
      await page.getByRole('button', { name: 'Done', exact: true }).click();
      await page.locator('main tr', { hasText: 'ana-research' }).filter({ hasText: 'browser-research' }).waitFor();
      await shot(page, 'keys-with-teams');

      const answer = await fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': anaSecret, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hello from a team' }] }),
      });
      assert.equal(answer.status, 200);
      await page.click('nav >> text=Request logs');
      await page.locator('main h1', { hasText: 'Request logs' }).waitFor();
      await page.locator('select[name=team] option', { hasText: 'browser-research' }).waitFor({ state: 'attached' });
      await page.selectOption('select[name=team]', { label: 'browser-research' });
      await waitFor(async () => (await page.locator('main tbody tr').count()) === 1, 'one request of the team');
      assert.match(await page.locator('main tbody tr').innerText(), /ana-research/);
      await shot(page, 'logs-by-team');
    });

    await step('a team budget is created, listed with what remains, and a request of the team takes from it', async () => {
      await page.click('nav >> text=Budgets');
      await page.locator('main h1', { hasText: 'Budgets' }).waitFor();
      await page.click('text=New budget');
      await page.selectOption('dialog select[name=scopeKind]', 'team');
      await page.locator('dialog select[name=scopeId] option', { hasText: 'browser-research' }).waitFor({ state: 'attached' });
      await page.selectOption('dialog select[name=scopeId]', { label: 'browser-research' });
      await page.fill('dialog input[name=name]', 'research monthly');
      await page.fill('dialog input[name=amountUsd]', '5');
      await page.fill('dialog input[name=tokens]', '1000');
      await page.selectOption('dialog select[name=period]', 'monthly');
      await page.fill('dialog input[name=timeZone]', 'Europe/Paris');
      await page.click('dialog button[type=submit]');
      const row = page.locator('main tr[data-budget="research monthly"]');
      await row.waitFor();
      assert.match(await row.innerText(), /team\s+browser-research/);
      assert.match(await row.innerText(), /monthly\s+Europe\/Paris/);
      assert.equal((await row.locator('td[data-remaining]').innerText()).trim(), '$5.00 · 1000 tokens');
      await shot(page, 'budgets');

      // A request with a key of the team: its tokens come off what remains.
      const teamId = ((await gw.admin('GET', '/teams')).body.data as { id: string; name: string }[]).find((team) => team.name === 'browser-research')!.id;
      const created = await gw.admin('POST', '/keys', { name: 'research-budget', teamId });
      assert.equal(created.status, 201);
      const answer = await fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': created.body.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hello from a budget' }] }),
      });
      assert.equal(answer.status, 200);
      await waitFor(async () => {
        await page.reload();
        const remaining = (await row.locator('td[data-remaining]').innerText()).trim();
        const tokens = Number(/· (\d+) tokens/.exec(remaining)?.[1] ?? 1000);
        return tokens < 1000 && tokens > 900;
      }, 'the budget to show the request taken off');
    });

    await step('a viewer’s personal admin token sees only the views a viewer may use', async () => {
      const viewer = await gw.admin('POST', '/users', { email: 'viewer@example.com', role: 'viewer' });
      const { secret: token } = await createAdminToken(gw.gateway.ctx.store, (await gw.gateway.ctx.store.users.get(viewer.body.id))!, { name: 'browser' }, BROWSER_ACTOR);
      const refused: string[] = [];
      page.on('response', (response) => {
        if (response.status() === 403) refused.push(response.url());
      });
      await page.click('text=Log out');
      await page.fill('input[name=adminKey]', token);
      await page.click('button[type=submit]');
      await page.locator('nav').waitFor();
      const nav = (await page.locator('nav a').allInnerTexts()).map((text) => text.trim());
      assert.deepEqual(nav, ['Overview', 'Request logs', 'Tasks', 'Prices', 'Your tokens']);
      assert.match(await page.locator('nav .who').innerText(), /viewer@example\.com/);
      await page.click('nav >> text=Prices');
      await page.locator('main h1', { hasText: 'Prices' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'New price' }).isVisible(), false);
      await page.click('nav >> text=Your tokens');
      await page.getByRole('button', { name: 'New token' }).click();
      await page.fill('input[name=name]', 'second browser');
      await page.getByRole('button', { name: 'Create token' }).click();
      const shown = (await page.locator('[data-testid=secret]').innerText()).trim();
      assert.match(shown, /^sk-pat-/);
      await page.getByRole('button', { name: 'Done', exact: true }).click();
      await page.locator('main tr', { hasText: 'second browser' }).waitFor();
      await shot(page, 'viewer-tokens');
      // Views a viewer may not read were not offered, so nothing here asked for them.
      assert.deepEqual(refused, []);
    });

    await step('logging out forgets the admin key', async () => {
      await page.click('text=Log out');
      await page.locator('input[name=adminKey]').waitFor();
      assert.equal(await page.evaluate("sessionStorage.getItem('switchyard.adminKey')"), null);
    });

    await step('single sign-on signs a person in through the provider, with the role their group maps to', async () => {
      await page.click('text=Sign in with Test IdP');
      await page.waitForURL((url) => atProvider(url.href));
      await page.fill('input[name=login]', 'grace');
      await page.fill('input[name=password]', 'anything');
      await page.click('button[type=submit]');
      await page.click('button:has-text("Continue")');
      await page.waitForURL((url) => url.href.startsWith(`${origin}/console/`));
      await page.locator('nav .who', { hasText: 'grace@example.test' }).waitFor();
      assert.equal(await page.evaluate("sessionStorage.getItem('switchyard.adminKey')"), null);
      const cookies = await page.context().cookies();
      const session = cookies.find((cookie) => cookie.name === 'switchyard_session');
      assert.ok(session?.httpOnly, 'the session cookie is HttpOnly');
      assert.equal(await page.evaluate('document.cookie.includes("switchyard_session")'), false);
      const grace = ((await gw.admin('GET', '/users')).body as { data: Array<Record<string, any>> }).data.find((user) => user.email === 'grace@example.test');
      assert.equal(grace?.role, 'admin');
      // The views work on the session: the keys list loads through the admin API.
      await page.click('nav >> text=Keys');
      await page.locator('main h1', { hasText: 'Keys' }).waitFor();
      await shot(page, 'signed-in-by-sso');
      await page.click('text=Log out');
      await page.locator('text=Sign in with Test IdP').waitFor();
      const after = await fetch(`${gw.url}/admin/auth/session`, { headers: { cookie: `switchyard_session=${session.value}` } });
      assert.equal(after.status, 401, 'the session ended at the gateway');
    });

    const probeOnly = otherUnauthorized === 0;
    const reported = problems.filter((problem) => !(probeOnly && problem.includes('status of 401')));
    assert.deepEqual(reported, [], 'no console errors, page errors or off-origin requests');
  } finally {
    await browser.close();
    await gw.close();
    await provider.close();
    await bedrock.close();
    await vertex.close();
  }
  const total = steps.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`console browser test: ${steps.length} steps passed in ${(total / 1000).toFixed(1)} s`);
}

await main();
