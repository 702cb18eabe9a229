/**
 * Media produced by tasks (images, later videos), behind one interface so an
 * object store can replace the local files. Keys are unguessable (128 random
 * bits) and double as the public address token: whoever holds the URL may
 * fetch the object, nobody can enumerate them. An object stored with an
 * expiry carries it in its key (`<hex>-<epoch ms, base 36>.<ext>`), so it is
 * not opened past that time without a lookup (the key names the file, so
 * the time cannot be changed); removing its file is its owner's sweeper's job.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { MediaItem, MediaRef } from './types.js';

export interface MediaObject {
  stream: Readable;
  contentType: string;
  size: number;
}

/** Inclusive byte offsets, as in an HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface MediaStore {
  put(item: MediaItem): Promise<MediaRef>;
  /**
   * Stores what `source` yields (an upload, a file the gateway writes), never
   * holding it whole in memory; an error of `source` (a size bound) leaves nothing stored.
   */
  putStream(source: Readable | AsyncIterable<string | Uint8Array>, contentType: string): Promise<MediaRef>;
  /** The object, or with `range` only those bytes (`size` stays the whole object's). */
  open(key: string, range?: ByteRange): Promise<MediaObject | undefined>;
  remove(key: string): Promise<void>;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'application/octet-stream': 'bin',
};
const TYPES = Object.fromEntries(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type]));

const KEY = /^[0-9a-f]{32}(-[0-9a-z]{1,11})?\.(png|jpg|gif|webp|mp4|bin)$/;

export const isMediaKey = (key: string): boolean => KEY.test(key);

/** When an object stops being served, from its key; undefined for one kept. */
export function mediaExpiry(key: string): number | undefined {
  const dash = key.indexOf('-');
  return dash === -1 ? undefined : Number.parseInt(key.slice(dash + 1, key.lastIndexOf('.')), 36);
}

export function contentTypeOfKey(key: string): string {
  return TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/** Files under `<dataDir>/media/<first two hex>/<key>`. */
export class LocalMediaStore implements MediaStore {
  constructor(private readonly root: string) {}

  async put(item: MediaItem): Promise<MediaRef> {
    const ext = EXTENSIONS[item.contentType] ?? 'bin';
    const expiry = item.expiresAt === undefined ? '' : `-${Math.ceil(item.expiresAt).toString(36)}`;
    const key = `${randomBytes(16).toString('hex')}${expiry}.${ext}`;
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const partial = `${file}.${process.pid}.part`;
    await writeFile(partial, item.bytes);
    await rename(partial, file);
    return {
      key,
      contentType: contentTypeOfKey(key),
      size: item.bytes.length,
      ...(item.width ? { width: item.width } : {}),
      ...(item.height ? { height: item.height } : {}),
      ...(item.role ? { role: item.role } : {}),
    };
  }

  async putStream(source: Readable | AsyncIterable<string | Uint8Array>, contentType: string): Promise<MediaRef> {
    const ext = EXTENSIONS[contentType] ?? 'bin';
    const key = `${randomBytes(16).toString('hex')}.${ext}`;
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.part`;
    try {
      await pipeline(source, createWriteStream(partial));
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { key, contentType: contentTypeOfKey(key), size: (await stat(file)).size };
  }

  async open(key: string, range?: ByteRange): Promise<MediaObject | undefined> {
    if (!isMediaKey(key)) return undefined;
    const expiresAt = mediaExpiry(key);
    if (expiresAt !== undefined && expiresAt <= Date.now()) return undefined;
    const file = this.fileOf(key);
    try {
      const info = await stat(file);
      const stream = range ? createReadStream(file, { start: range.start, end: range.end }) : createReadStream(file);
      return { stream, contentType: contentTypeOfKey(key), size: info.size };
    } catch {
      return undefined;
    }
  }

  async remove(key: string): Promise<void> {
    if (isMediaKey(key)) await rm(this.fileOf(key), { force: true });
  }

  private fileOf(key: string): string {
    return path.join(this.root, key.slice(0, 2), key);
  }
}
