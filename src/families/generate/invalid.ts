/** The 400 a malformed request gets, naming the field in proto spelling as the service does. */
import { GatewayError } from '../../core/errors.js';

export function invalidArgument(path: string, message: string): GatewayError {
  const text = path ? `* GenerateContentRequest.${path}: ${message}` : message;
  return new GatewayError('invalid_request', text, path ? { param: path } : {});
}

/** `generationConfig.stopSequences` → `generation_config.stop_sequences`, indexes as `[0]`. */
export function protoPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += (out === '' ? '' : '.') + String(segment).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  }
  return out;
}
