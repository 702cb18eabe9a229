/**
 * The asynchronous video-synthesis request: `{model, input, parameters}`.
 * Text to video names the size as `W*H`; image, keyframe and audio-combined
 * video name the resolution tier (the service's image models take no size).
 * Resources travel by URL, as the client gave them in `metadata`.
 */
import type { VideoTaskRequest } from '../../tasks/video-contract.js';

export interface SynthesisRequest {
  model: string;
  input: Record<string, string>;
  parameters: Record<string, string | number | boolean>;
}

export function synthesisRequest(request: VideoTaskRequest, upstreamModel: string): SynthesisRequest {
  const { options } = request;
  const input: Record<string, string> = { prompt: request.prompt };
  if (options.negativePrompt) input.negative_prompt = options.negativePrompt;
  if (options.imageUrl) input.img_url = options.imageUrl;
  if (options.firstFrameUrl) input.first_frame_url = options.firstFrameUrl;
  if (options.lastFrameUrl) input.last_frame_url = options.lastFrameUrl;
  if (options.audioUrl) input.audio_url = options.audioUrl;
  const fromImage = Boolean(options.imageUrl || options.firstFrameUrl);
  const parameters: Record<string, string | number | boolean> = {
    duration: request.seconds,
    prompt_extend: options.promptExtend ?? true,
    watermark: options.watermark ?? false,
  };
  if (fromImage) parameters.resolution = request.resolution ?? request.tier;
  else parameters.size = `${request.width}*${request.height}`;
  if (options.audio !== undefined) parameters.audio = options.audio;
  if (request.seed !== undefined) parameters.seed = request.seed;
  return { model: upstreamModel, input, parameters };
}
