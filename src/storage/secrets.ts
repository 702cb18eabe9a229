/**
 * Upstream credentials at rest: AES-256-GCM with a per-value random IV.
 * Sealed form: `v1:<iv>:<tag>:<ciphertext>`, each part base64.
 * The key comes from SWITCHYARD_SECRET_KEY (any string, stretched with scrypt)
 * or from `<dataDir>/secret.key`, generated on first use. Which key a store
 * was sealed with, and whether one may be generated, is decided against the
 * store in store-secrets.ts.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scrypt } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const version = 'v1';
const keyBytes = 32;
const ivBytes = 12;
const tagBytes = 16;
// A fixed salt: the same passphrase must give the same key on every start and every replica.
const passphraseSalt = 'switchyard/secret-box/v1';
const fingerprintLabel = 'switchyard/secret-key-fingerprint/v1';

export const keyFilePath = (dataDir: string): string => join(dataDir, 'secret.key');

function parseKey(text: string, path: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== keyBytes) throw new Error(`${path} does not hold a base64 ${keyBytes}-byte key`);
  return key;
}

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static async open(dataDir: string, envKey?: string): Promise<SecretBox> {
    if (envKey !== undefined && envKey !== '') return new SecretBox(await stretch(envKey));
    return new SecretBox(await readOrCreateKeyFile(dataDir));
  }

  /** The key in `<dataDir>/secret.key`, or undefined when there is no such file (nothing is created). */
  static async fromKeyFile(dataDir: string): Promise<SecretBox | undefined> {
    const path = keyFilePath(dataDir);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return new SecretBox(parseKey(text, path));
  }

  /** A box from a passphrase, as SWITCHYARD_SECRET_KEY gives it. */
  static async fromPassphrase(passphrase: string): Promise<SecretBox> {
    return new SecretBox(await stretch(passphrase));
  }

  /** A new random key, for rotation; `keyFileText` is what secret.key holds for it. */
  static generate(): { box: SecretBox; keyFileText: string } {
    const key = randomBytes(keyBytes);
    return { box: new SecretBox(key), keyFileText: key.toString('base64') + '\n' };
  }

  /**
   * Names the key without revealing it (HKDF over a label of its own), so a
   * store can record which key sealed it and refuse another.
   */
  fingerprint(): string {
    return this.deriveKey(fingerprintLabel).subarray(0, 16).toString('hex');
  }

  /** A box from a raw 32-byte key (tests, tools that already hold the key). */
  static fromKey(key: Buffer): SecretBox {
    if (key.length !== keyBytes) throw new Error(`secret key must be ${keyBytes} bytes, got ${key.length}`);
    return new SecretBox(Buffer.from(key));
  }

  /** A separate key for another use of the same secret (HKDF-SHA256 over the label), so no two uses share a key. */
  deriveKey(label: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), label, keyBytes));
  }

  seal(plain: string): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return `${version}:${iv.toString('base64')}:${tag.toString('base64')}:${ciphertext.toString('base64')}`;
  }

  /** Throws when the value was sealed with another key or altered. */
  open(sealed: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 4 || parts[0] !== version) {
      throw new Error(`sealed secret has an unknown format (expected ${version}:<iv>:<tag>:<ciphertext>)`);
    }
    const iv = Buffer.from(parts[1], 'base64');
    const tag = Buffer.from(parts[2], 'base64');
    if (iv.length !== ivBytes || tag.length !== tagBytes) throw new Error('sealed secret has a malformed iv or tag');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: tagBytes });
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(Buffer.from(parts[3], 'base64')), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new Error('sealed secret could not be opened: wrong secret key or altered data', { cause: error });
    }
  }
}

function stretch(passphrase: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passphrase, passphraseSalt, keyBytes, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

async function readOrCreateKeyFile(dataDir: string): Promise<Buffer> {
  const path = keyFilePath(dataDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await createKeyFile(dataDir, path);
    text = await readFile(path, 'utf8');
  }
  return parseKey(text, path);
}

/**
 * Written aside then hard-linked into place: the link fails if the file exists,
 * so two processes starting together keep one key and never read half a file.
 */
async function createKeyFile(dataDir: string, path: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temporary, randomBytes(keyBytes).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary);
  }
}
