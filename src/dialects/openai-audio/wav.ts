/**
 * WAV (RIFF, PCM) written and measured: the simulator's speech, Gemini's
 * PCM speech given a header, and the
 * seconds of an uploaded or answered WAV that audio is billed by.
 */

/** A 16-bit mono PCM WAV of `seconds` of a quiet tone (not silence, so players show a waveform). */
export function toneWav(seconds: number, sampleRate = 24_000): Buffer {
  const samples = Math.max(1, Math.round(seconds * sampleRate));
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(2000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)), i * 2);
  return Buffer.concat([wavHeader(data.length, sampleRate), data]);
}

/** 16-bit mono PCM samples as a WAV file (a header before them). */
export function pcmWav(samples: Buffer, sampleRate = 24_000): Buffer {
  return Buffer.concat([wavHeader(samples.length, sampleRate), samples]);
}

function wavHeader(dataBytes: number, sampleRate: number): Buffer {
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(36 + dataBytes, 4);
  head.write('WAVEfmt ', 8, 'latin1');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(sampleRate, 24);
  head.writeUInt32LE(sampleRate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36, 'latin1');
  head.writeUInt32LE(dataBytes, 40);
  return head;
}

/**
 * The seconds a WAV file plays, from its `fmt ` and `data` chunks; undefined
 * when the bytes are no WAV. `totalBytes` is the whole file's length when
 * `bytes` is only its head (an answer measured as it streams by).
 */
export function wavSeconds(bytes: Buffer, totalBytes = bytes.length): number | undefined {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 16 <= bytes.length) byteRate = bytes.readUInt32LE(offset + 16);
    // A streamed WAV's data size may be unknown (0 or 0xffffffff): the bytes present say it.
    if (id === 'data') return byteRate ? Math.min(size, totalBytes - offset - 8) / byteRate : undefined;
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

/** The PCM samples of the simulator's speech: 24 kHz 16-bit mono, as OpenAI's `pcm` format. */
export const PCM_BYTES_PER_SECOND = 48_000;
