/**
 * Sends a stored media object the way players and download tools expect:
 * `Content-Type`, `Content-Length`, `Content-Disposition`, `Accept-Ranges`,
 * and one byte range (206, or 416 when it lies past the end) when asked.
 * Several ranges or a malformed Range header get the whole object (RFC 9110
 * lets a server ignore a Range it does not serve).
 */
import type { FastifyReply } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import type { ByteRange, MediaStore } from '../../tasks/media.js';

export interface SendOptions {
  filename: string;
  disposition: 'attachment' | 'inline';
  cacheControl: string;
  range?: string;
}

/** The single range a `Range` header asks for, `'unsatisfiable'`, or undefined to send everything. */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

export async function sendMedia(reply: FastifyReply, media: MediaStore, key: string, options: SendOptions): Promise<FastifyReply> {
  const whole = await media.open(key);
  if (!whole) throw new GatewayError('not_found', 'the file is no longer stored');
  const range = parseRange(options.range, whole.size);
  reply
    .header('accept-ranges', 'bytes')
    .header('content-disposition', `${options.disposition}; filename="${options.filename}"`)
    .header('cache-control', options.cacheControl)
    .header('content-type', whole.contentType);
  if (range === 'unsatisfiable') {
    whole.stream.destroy();
    return reply.code(416).header('content-range', `bytes */${whole.size}`).send();
  }
  if (!range || (range.start === 0 && range.end === whole.size - 1)) {
    return reply.code(200).header('content-length', String(whole.size)).send(whole.stream);
  }
  whole.stream.destroy();
  const part = await media.open(key, range);
  if (!part) throw new GatewayError('not_found', 'the file is no longer stored');
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${whole.size}`)
    .header('content-length', String(range.end - range.start + 1))
    .send(part.stream);
}
