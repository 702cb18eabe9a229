/**
 * A transcription's or translation's form (http/multipart-form.ts): one
 * `file` within 25 MB (as OpenAI) and the text fields
 * (`timestamp_granularities[]` may repeat, so each holds every value given);
 * written again for a server that takes it itself.
 */
import type { FastifyRequest } from 'fastify';
import { encodeMultipartForm, type FormFile, type MultipartForm, readMultipartForm } from '../../http/multipart-form.js';

export interface AudioForm {
  fields: Record<string, string[]>;
  file?: FormFile;
  /** The form as read, to write again. */
  parts: MultipartForm;
}

export async function readAudioForm(request: FastifyRequest, maxBytes: number): Promise<AudioForm> {
  const parts = await readMultipartForm(request, {
    what: 'the audio (a file and text fields)',
    fileFields: ['file'],
    singleFiles: ['file'],
    maxFiles: 1,
    maxFileBytes: maxBytes,
    fileParam: 'file',
  });
  return { fields: parts.fields, file: parts.files[0], parts };
}

export const encodeAudioForm = (form: AudioForm, model: string) => encodeMultipartForm(form.parts, model, 'audio.wav');
