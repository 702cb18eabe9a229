/**
 * The content-generation protocol's audio rules without a server: a file's
 * media type from its form type, name or first bytes; the refusals each
 * naming their field (the inline bound, a type Gemini does not take); the
 * voice table and Gemini's own names; the style direction before the input.
 */
import { describe, expect, it } from 'vitest';
import { toneWav } from '../../../../src/dialects/openai-audio/wav.js';
import type { TranscriptionRequest } from '../../../../src/dialects/openai-audio/wire.js';
import { speechBody } from '../../../../src/upstreams/protocols/generate/audio.js';
import { audioType, MAX_INLINE_AUDIO_BYTES, transcriptionBody, transcriptionRefusal } from '../../../../src/upstreams/protocols/generate/transcribe.js';
import { GEMINI_VOICES, geminiVoice, OPENAI_TO_GEMINI_VOICE } from '../../../../src/upstreams/protocols/generate/voices.js';

const transcription = (file: TranscriptionRequest['file'], extra: Partial<TranscriptionRequest> = {}): TranscriptionRequest => ({
  operation: 'transcriptions',
  model: 'gemini-2.5-flash',
  file,
  responseFormat: 'json',
  stream: false,
  ...extra,
});

describe('gemini audio rules', () => {
  it("reads a file's type from its form type, else its name, else its bytes", () => {
    expect(audioType({ bytes: Buffer.from('x'), contentType: 'audio/mpeg' })).toBe('audio/mp3');
    expect(audioType({ bytes: Buffer.from('x'), contentType: 'audio/x-wav; codecs=1' })).toBe('audio/wav');
    expect(audioType({ bytes: Buffer.from('x'), contentType: 'application/octet-stream', filename: 'Talk.AIFF' })).toBe('audio/aiff');
    expect(audioType({ bytes: toneWav(0.1), filename: 'upload' })).toBe('audio/wav');
    expect(audioType({ bytes: Buffer.from('OggS....') })).toBe('audio/ogg');
    expect(audioType({ bytes: Buffer.from('ID3\x04') })).toBe('audio/mp3');
    expect(audioType({ bytes: Buffer.from([0xff, 0xfb, 0x90, 0x00]) })).toBe('audio/mp3');
    expect(audioType({ bytes: Buffer.from([0xff, 0xf1, 0x50, 0x80]) })).toBe('audio/aac');
    expect(audioType({ bytes: Buffer.from('FORM\0\0\0\0AIFF') })).toBe('audio/aiff');
    expect(audioType({ bytes: Buffer.from('\x1aE\xdf\xa3 webm'), filename: 'a.webm' })).toBeUndefined();
  });

  it('refuses a file over the inline bound and one of another type, naming file', () => {
    const big = transcriptionRefusal(transcription({ bytes: Buffer.alloc(MAX_INLINE_AUDIO_BYTES + 1), filename: 'a.wav' }));
    expect(big).toMatchObject({ status: 400, param: 'file' });
    expect(transcriptionRefusal(transcription({ bytes: Buffer.alloc(MAX_INLINE_AUDIO_BYTES), filename: 'a.wav' }))).toBeUndefined();
    expect(transcriptionRefusal(transcription({ bytes: Buffer.from('m4a'), filename: 'a.m4a', contentType: 'audio/mp4' }))).toMatchObject({ param: 'file' });
  });

  it('asks a translation for English, with the temperature asked', () => {
    const body = transcriptionBody(transcription({ bytes: toneWav(0.1) }, { operation: 'translations', temperature: 0.2 })) as any;
    expect(body.contents[0].parts[1].text).toMatch(/^Translate the speech in this audio into English/);
    expect(body.generationConfig).toEqual({ temperature: 0.2 });
  });

  it("maps every OpenAI voice to one of Gemini's, and takes Gemini's names in any case", () => {
    for (const voice of Object.values(OPENAI_TO_GEMINI_VOICE)) expect(GEMINI_VOICES).toContain(voice);
    expect(geminiVoice('ALLOY')).toBe('Kore');
    expect(geminiVoice('zubenelgenubi')).toBe('Zubenelgenubi');
    expect(geminiVoice('voice_123')).toBeUndefined();
  });

  it('puts the instructions before the input as a style direction', () => {
    const body = (instructions?: string) =>
      (speechBody({ operation: 'speech', model: 'm', input: 'Hello.', voice: 'Puck', responseFormat: 'wav', speed: 1, streamFormat: 'audio', instructions }) as any).contents[0].parts[0].text;
    expect(body()).toBe('Hello.');
    expect(body('Speak in a whisper.  ')).toBe('Speak in a whisper: Hello.');
    expect(body('Say cheerfully:')).toBe('Say cheerfully: Hello.');
  });
});
