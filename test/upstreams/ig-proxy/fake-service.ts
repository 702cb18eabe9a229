/**
 * A loopback image-task service that behaves like a real one: its own path
 * prefix, secret header, bot-type words and customId prefix; tasks that move
 * through SUBMITTED, IN_PROGRESS and SUCCESS on a clock; buttons with job
 * hashes; modal actions answered with code 21; images served from a "CDN"
 * path; and injectable trouble (5xx answers, slow answers, refusals). It
 * records every request, and catches two list calls asking about one task
 * at the same time.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';

export interface FakeServiceOptions {
  prefix?: string;
  secretHeader?: string;
  secret?: string;
  botWords?: Record<string, string>;
  customIdPrefix?: string;
  /** Time per lifecycle step (SUBMITTED → IN_PROGRESS → … → SUCCESS). */
  stepMs?: number;
  /** Wait inside each list call (to make overlapping polls observable). */
  listDelayMs?: number;
}

interface FakeTask {
  id: string;
  action: string;
  prompt: string;
  botType: string;
  status: string;
  createdAt: number;
  hash: string;
  failReason?: string;
  description: string;
}

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

const GRID = ['upsample::1', 'upsample::2', 'upsample::3', 'upsample::4'];

export class FakeImageService {
  readonly options: Required<FakeServiceOptions>;
  origin = '';
  readonly requests: Recorded[] = [];
  readonly tasks = new Map<string, FakeTask>();
  /** Ids asked about by each list call, in order. */
  readonly listCalls: string[][] = [];
  overlaps = 0;
  private readonly listing = new Map<string, number>();
  private trouble: Array<{ status?: number; delayMs?: number; body?: string }> = [];
  private failPrompts = new Set<string>();
  private sequence = 7_000;
  private server = createServer((req, res) => void this.handle(req, res));

  constructor(options: FakeServiceOptions = {}) {
    this.options = {
      prefix: '/vend',
      secretHeader: 'vend-api-secret',
      secret: 'upstream-secret-0001',
      botWords: { MID_GEN: 'VEND_BOT', NIJI_GEN: 'VEND_NIJI' },
      customIdPrefix: 'VEND',
      stepMs: 60,
      listDelayMs: 0,
      ...options,
    };
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The next `count` requests get this answer instead (a status, a delay before answering normally, or both). */
  troubleNext(count: number, trouble: { status?: number; delayMs?: number; body?: string }): void {
    for (let i = 0; i < count; i++) this.trouble.push(trouble);
  }

  /** Tasks whose prompt contains this word end in FAILURE. */
  failPrompt(word: string): void {
    this.failPrompts.add(word);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const text = Buffer.concat(parts).toString('utf8');
    const path = (req.url ?? '/').split('?')[0];
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    if (path.startsWith('/cdn/')) return this.image(path, res);
    const trouble = this.trouble.shift();
    if (trouble?.delayMs) await new Promise((resolve) => setTimeout(resolve, trouble.delayMs));
    if (res.destroyed) return;
    if (trouble?.status) return send(res, trouble.status, trouble.body ?? { error: { message: `fake upstream says ${trouble.status}` } });
    if (req.headers[this.options.secretHeader] !== this.options.secret) return send(res, 401, { message: 'bad secret' });
    const { prefix } = this.options;
    if (!path.startsWith(`${prefix}/`)) return send(res, 404, { message: 'no such path' });
    const route = path.slice(prefix.length);
    if (route === '/task/list-by-condition') return this.list(body?.ids ?? [], res);
    const seed = /^\/task\/([^/]+)\/image-seed$/.exec(route);
    if (seed) {
      const task = this.tasks.get(seed[1]);
      if (!task) return send(res, 404, { code: 3, description: 'no such task' });
      return send(res, 200, { code: 1, description: '成功', result: String(1000 + Number(task.id.slice(1))) });
    }
    return send(res, 200, this.submit(route, body ?? {}));
  }

  private submit(route: string, body: any): Record<string, unknown> {
    const words = Object.values(this.options.botWords);
    const botType = body.botType;
    if (botType !== undefined && !words.includes(botType)) return { code: 4, description: `unknown botType ${botType}` };
    switch (route) {
      case '/submit/imagine':
        if (String(body.prompt).includes('banned')) return { code: 24, description: 'may contain a banned word', properties: { bannedWord: 'banned' } };
        if (String(body.prompt).includes('queue')) return this.created('IMAGINE', body.prompt, botType, 22);
        return this.created('IMAGINE', body.prompt, botType);
      case '/submit/blend':
        return Array.isArray(body.base64Array) && body.base64Array.length >= 2 ? this.created('BLEND', '', botType) : { code: 4, description: 'bad images' };
      case '/submit/describe':
        return typeof body.base64 === 'string' ? this.created('DESCRIBE', '', botType) : { code: 4, description: 'base64 missing' };
      case '/submit/shorten':
        return this.created('SHORTEN', body.prompt, botType);
      case '/insight-face/swap':
        return body.sourceBase64 && body.targetBase64 ? this.created('SWAP_FACE', '', 'INSIGHT_FACE') : { code: 4, description: 'images missing' };
      case '/submit/action':
        return this.action(body);
      case '/submit/modal': {
        const task = this.tasks.get(body.taskId);
        if (task?.status !== 'MODAL') return { code: 4, description: 'not a modal task' };
        task.status = 'SUBMITTED';
        task.prompt = body.prompt;
        task.createdAt = Date.now();
        return { code: 1, description: '提交成功', result: task.id };
      }
      default:
        return { code: 4, description: `unknown route ${route}` };
    }
  }

  private created(action: string, prompt: string, botType: string, code = 1, status = 'SUBMITTED'): Record<string, unknown> {
    const task: FakeTask = { id: `U${this.sequence++}`, action, prompt, botType, status, createdAt: Date.now(), hash: randomUUID(), description: '提交成功' };
    if ([...this.failPrompts].some((word) => prompt.includes(word))) task.failReason = 'upstream says no';
    this.tasks.set(task.id, task);
    if (code === 22) return { code: 22, description: '排队中', result: task.id, properties: { numberOfQueues: 2 } };
    return { code, description: code === 21 ? 'Waiting for window confirm' : '提交成功', result: task.id, properties: { discordInstanceId: 'vendor-account' } };
  }

  private action(body: any): Record<string, unknown> {
    const parent = this.tasks.get(body.taskId);
    if (!parent) return { code: 3, description: 'parent not found' };
    const buttons = this.buttons(parent).map((button) => button.customId);
    if (!buttons.includes(body.customId)) return { code: 4, description: `unknown customId ${body.customId}` };
    const op = String(body.customId);
    if (op.includes('::CustomZoom::') || op.includes('::Inpaint::')) return this.created(op.includes('CustomZoom') ? 'ZOOM' : 'VARIATION', parent.prompt, parent.botType, 21, 'MODAL');
    const action = op.includes('::upsample') ? 'UPSCALE' : op.includes('pan_') ? 'PAN' : op.includes('Outpaint') ? 'ZOOM' : op.includes('reroll') ? parent.action : 'VARIATION';
    return this.created(action, parent.prompt, parent.botType);
  }

  private buttons(task: FakeTask): Array<Record<string, unknown>> {
    const p = this.options.customIdPrefix;
    if (task.action === 'UPSCALE') {
      return [
        { customId: `${p}::JOB::upsample_v6r1_2x_subtle::1::${task.hash}::SOLO`, emoji: 'upscale_1', label: 'Upscale (Subtle)', style: 2, type: 2 },
        { customId: `${p}::JOB::low_variation::1::${task.hash}::SOLO`, emoji: '🪄', label: 'Vary (Subtle)', style: 2, type: 2 },
        { customId: `${p}::CustomZoom::${task.hash}`, emoji: '🔍', label: 'Custom Zoom', style: 2, type: 2 },
        { customId: `${p}::JOB::pan_left::1::${task.hash}::SOLO`, emoji: '⬅️', label: '', style: 2, type: 2 },
        { url: 'https://vendor.example/jobs', label: 'Web', style: 5, type: 2 },
      ];
    }
    if (task.action === 'DESCRIBE') return [1, 2, 3, 4].map((i) => ({ customId: `${p}::Job::PicReader::${i}`, emoji: `${i}️⃣`, label: '', style: 2, type: 2 }));
    if (task.action === 'SHORTEN' || task.action === 'SWAP_FACE') return [];
    return [
      ...GRID.map((op, i) => ({ customId: `${p}::JOB::${op}::${task.hash}`, emoji: '', label: `U${i + 1}`, style: 2, type: 2 })),
      { customId: `${p}::JOB::reroll::0::${task.hash}::SOLO`, emoji: '🔄', label: '', style: 2, type: 2 },
      ...[1, 2, 3, 4].map((i) => ({ customId: `${p}::JOB::variation::${i}::${task.hash}`, emoji: '', label: `V${i}`, style: 2, type: 2 })),
    ];
  }

  private record(task: FakeTask): Record<string, unknown> {
    const step = this.options.stepMs;
    const age = Date.now() - task.createdAt;
    let status = task.status;
    let progress = '0%';
    if (status !== 'MODAL') {
      if (age >= 3 * step) status = task.failReason ? 'FAILURE' : 'SUCCESS';
      else if (age >= step) status = 'IN_PROGRESS';
      progress = status === 'SUCCESS' ? '100%' : status === 'IN_PROGRESS' ? (age >= 2 * step ? '78%' : '31%') : status === 'FAILURE' ? '' : '0%';
    }
    const done = status === 'SUCCESS';
    const describe = task.action === 'DESCRIBE';
    return {
      id: task.id,
      action: task.action,
      status,
      prompt: describe && done ? '1️⃣ a cat --ar 1:1\n\n2️⃣ a dog --ar 1:1\n\n3️⃣ a bird --ar 1:1\n\n4️⃣ a fish --ar 1:1' : task.prompt,
      promptEn: describe && done ? '1️⃣ a cat --ar 1:1\n\n2️⃣ a dog --ar 1:1\n\n3️⃣ a bird --ar 1:1\n\n4️⃣ a fish --ar 1:1' : task.prompt,
      description: task.action === 'SHORTEN' && done ? '**Shortened prompts**\n\n1️⃣ short\n\n2️⃣ shorter' : task.description,
      failReason: status === 'FAILURE' ? task.failReason : '',
      imageUrl: done || status === 'IN_PROGRESS' ? `${this.origin}/cdn/${task.id}.png` : '',
      progress,
      startTime: task.createdAt,
      submitTime: task.createdAt,
      finishTime: done ? task.createdAt + 3 * step : 0,
      properties: { finalPrompt: `${task.prompt} --v 6.1`, discordInstanceId: 'vendor-account' },
      buttons: done ? this.buttons(task) : [],
    };
  }

  private async list(ids: string[], res: ServerResponse): Promise<void> {
    this.listCalls.push(ids);
    for (const id of ids) {
      const count = (this.listing.get(id) ?? 0) + 1;
      this.listing.set(id, count);
      if (count > 1) this.overlaps++;
    }
    try {
      if (this.options.listDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.listDelayMs));
      send(
        res,
        200,
        ids.flatMap((id) => (this.tasks.has(id) ? [this.record(this.tasks.get(id)!)] : [])),
      );
    } finally {
      for (const id of ids) this.listing.set(id, (this.listing.get(id) ?? 1) - 1);
    }
  }

  private image(path: string, res: ServerResponse): void {
    const id = path.slice('/cdn/'.length).replace(/\.png$/, '');
    if (!this.tasks.has(id)) return send(res, 404, { message: 'no image' });
    const png = new PNG({ width: 16, height: 16 });
    const shade = Number(id.slice(1)) % 256;
    for (let i = 0; i < 256; i++) png.data.set([shade, 255 - shade, 128, 255], i * 4);
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(PNG.sync.write(png));
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export async function startFakeImageService(options: FakeServiceOptions = {}): Promise<FakeImageService> {
  return new FakeImageService(options).start();
}
