/**
 * The media store's expiring objects: the expiry is written into the key, an
 * object is not opened past it, and a key whose time was changed names no
 * file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMediaKey, LocalMediaStore, mediaExpiry } from '../../src/tasks/media.js';

describe('expiring media', () => {
  let dir: string;
  let media: LocalMediaStore;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-media-'));
    media = new LocalMediaStore(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps an object without an expiry, and opens an expiring one only before its time', async () => {
    const kept = await media.put({ bytes: Buffer.from('kept'), contentType: 'image/png' });
    expect(mediaExpiry(kept.key)).toBeUndefined();
    expect(await media.open(kept.key)).toBeDefined();

    const expiresAt = Date.now() + 3_600_000;
    const later = await media.put({ bytes: Buffer.from('later'), contentType: 'image/png', expiresAt });
    expect(isMediaKey(later.key)).toBe(true);
    expect(mediaExpiry(later.key)).toBe(expiresAt);
    const opened = await media.open(later.key);
    expect(opened?.size).toBe(5);
    opened?.stream.destroy();

    const past = await media.put({ bytes: Buffer.from('past'), contentType: 'image/png', expiresAt: Date.now() - 1 });
    expect(await media.open(past.key)).toBeUndefined();
    // Moving the time in the key names another file.
    const moved = past.key.replace(/-[0-9a-z]+\./, `-${(Date.now() + 3_600_000).toString(36)}.`);
    expect(isMediaKey(moved)).toBe(true);
    expect(await media.open(moved)).toBeUndefined();
  });
});
