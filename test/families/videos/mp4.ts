/**
 * A tiny MP4 box reader for tests: walks the box tree and reports the movie
 * header's timescale and duration, the video track's size, the sample entry
 * type (avc1 for H.264) and the number of samples.
 */
export interface Mp4Facts {
  brands: string[];
  timescale: number;
  duration: number;
  /** duration / timescale */
  seconds: number;
  width: number;
  height: number;
  sampleEntries: string[];
  samples: number;
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl']);

export function inspectMp4(bytes: Uint8Array): Mp4Facts {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const facts: Mp4Facts = { brands: [], timescale: 0, duration: 0, seconds: 0, width: 0, height: 0, sampleEntries: [], samples: 0 };
  const walk = (start: number, end: number) => {
    let at = start;
    while (at + 8 <= end) {
      let size = buffer.readUInt32BE(at);
      const type = buffer.toString('latin1', at + 4, at + 8);
      let header = 8;
      if (size === 1) {
        size = Number(buffer.readBigUInt64BE(at + 8));
        header = 16;
      } else if (size === 0) size = end - at;
      if (size < header || at + size > end) throw new Error(`malformed box ${type} at ${at}`);
      const body = at + header;
      if (type === 'ftyp') {
        for (let b = body; b + 4 <= at + size; b += 4) if (b !== body + 4) facts.brands.push(buffer.toString('latin1', b, b + 4));
      } else if (type === 'mvhd') {
        const version = buffer[body];
        facts.timescale = version === 1 ? buffer.readUInt32BE(body + 20) : buffer.readUInt32BE(body + 12);
        facts.duration = version === 1 ? Number(buffer.readBigUInt64BE(body + 24)) : buffer.readUInt32BE(body + 16);
      } else if (type === 'tkhd') {
        const offset = body + (buffer[body] === 1 ? 88 : 76);
        const width = buffer.readUInt32BE(offset) / 65536;
        const height = buffer.readUInt32BE(offset + 4) / 65536;
        if (width > 0) {
          facts.width = width;
          facts.height = height;
        }
      } else if (type === 'stsd') {
        walk(body + 8, at + size);
      } else if (type === 'stsz') {
        facts.samples += buffer.readUInt32BE(body + 8);
      } else if (CONTAINERS.has(type)) {
        walk(body, at + size);
      } else if (['avc1', 'avc3', 'hvc1', 'hev1', 'mp4v', 'mp4a'].includes(type)) {
        facts.sampleEntries.push(type);
      }
      at += size;
    }
  };
  walk(0, buffer.length);
  facts.seconds = facts.timescale ? facts.duration / facts.timescale : 0;
  return facts;
}
