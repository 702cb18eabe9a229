import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/storage/secrets.js';

describe('SecretBox', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'switchyard-secrets-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('round-trips a secret in the versioned sealed form', async () => {
    const box = await SecretBox.open(dataDir);
    const sealed = box.seal('sk-upstream-ünïcode-🔑');
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]*$/);
    expect(sealed).not.toContain('sk-upstream');
    expect(box.open(sealed)).toBe('sk-upstream-ünïcode-🔑');
    expect(box.seal('same')).not.toBe(box.seal('same'));
    expect(box.open(box.seal(''))).toBe('');
  });

  it('keeps a generated key in <dataDir>/secret.key, private, and reuses it', async () => {
    const sealed = (await SecretBox.open(dataDir)).seal('secret');
    const file = join(dataDir, 'secret.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')).toHaveLength(32);
    expect((await SecretBox.open(dataDir)).open(sealed)).toBe('secret');
  });

  it('creates one key when opened concurrently', async () => {
    const boxes = await Promise.all(Array.from({ length: 8 }, () => SecretBox.open(dataDir)));
    const sealed = boxes[0].seal('shared');
    for (const box of boxes) expect(box.open(sealed)).toBe('shared');
  });

  it('derives the key from SWITCHYARD_SECRET_KEY when given, ignoring the file', async () => {
    const fromEnv = await SecretBox.open(dataDir, 'correct horse battery staple');
    const again = await SecretBox.open(join(dataDir, 'elsewhere'), 'correct horse battery staple');
    expect(again.open(fromEnv.seal('x'))).toBe('x');
    await expect(stat(join(dataDir, 'secret.key'))).rejects.toMatchObject({ code: 'ENOENT' });
    const other = await SecretBox.open(dataDir, 'another passphrase');
    expect(() => other.open(fromEnv.seal('x'))).toThrow(/wrong secret key or altered data/);
  });

  it('detects tampering with ciphertext, tag or iv', async () => {
    const box = await SecretBox.open(dataDir);
    const [version, iv, tag, ciphertext] = box.seal('sk-live-123456').split(':');
    const flip = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[0] ^= 1;
      return bytes.toString('base64');
    };
    expect(() => box.open([version, iv, tag, flip(ciphertext)].join(':'))).toThrow(/altered/);
    expect(() => box.open([version, iv, flip(tag), ciphertext].join(':'))).toThrow(/altered/);
    expect(() => box.open([version, flip(iv), tag, ciphertext].join(':'))).toThrow(/altered/);
    expect(() => box.open(['v2', iv, tag, ciphertext].join(':'))).toThrow(/unknown format/);
    expect(() => box.open('plain-text-key')).toThrow(/unknown format/);
    expect(() => box.open([version, 'AAAA', tag, ciphertext].join(':'))).toThrow(/malformed/);
  });

  it('refuses a damaged key file', async () => {
    await writeFile(join(dataDir, 'secret.key'), 'too-short');
    await expect(SecretBox.open(dataDir)).rejects.toThrow(/32-byte key/);
  });
});
