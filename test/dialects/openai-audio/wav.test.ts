/** The WAV the simulator writes, a WAV's seconds (whole, or from its head and length), and a transcription answer's usage. */
import { describe, expect, it } from 'vitest';
import { toneWav, wavSeconds } from '../../../src/dialects/openai-audio/wav.js';
import { transcriptUsage } from '../../../src/dialects/openai-audio/wire.js';

describe('WAV', () => {
  it('writes a 24 kHz mono 16-bit PCM WAV and reads its seconds back', () => {
    const wav = toneWav(2.5);
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(24_000);
    expect(wavSeconds(wav)).toBeCloseTo(2.5, 6);
    expect(wavSeconds(wav.subarray(0, 64), wav.length)).toBeCloseTo(2.5, 6);
  });

  it('reads a streamed WAV whose data size is unknown by the bytes present, and no seconds from other bytes', () => {
    const wav = toneWav(1);
    wav.writeUInt32LE(0xffffffff, 40);
    expect(wavSeconds(wav)).toBeCloseTo(1, 6);
    expect(wavSeconds(Buffer.from('ID3 not a wav at all'))).toBeUndefined();
    expect(wavSeconds(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('transcription usage', () => {
  it('reads tokens, a duration usage, or verbose_json duration', () => {
    expect(transcriptUsage({ text: 'x', usage: { type: 'tokens', input_tokens: 3, output_tokens: 2 } })).toMatchObject({ inputTokens: 3, outputTokens: 2 });
    expect(transcriptUsage({ text: 'x', usage: { type: 'duration', seconds: 4 } })).toMatchObject({ seconds: 4 });
    expect(transcriptUsage({ text: 'x', duration: 7.5 })).toMatchObject({ seconds: 7.5 });
    expect(transcriptUsage({ text: 'x', duration: -1 })).toEqual({});
    expect(transcriptUsage('nope')).toEqual({});
  });
});
