/**
 * A Bedrock Runtime non-2xx answer: `{"message": "…"}` with the error's name
 * in the `x-amzn-errortype` header (`ValidationException:http://…`). The
 * status says most of it (error-answer.ts); the name refines what the status
 * alone reads wrongly: a model that failed (`ModelErrorException`, 424) or is
 * not ready yet (`ModelNotReadyException`) is the upstream's failure, to fail
 * over from, not the client's bad request.
 */
import { GatewayError } from '../../core/errors.js';
import { readErrorText, statusErrorFromText } from '../error-answer.js';
import { firstHeader, type UpstreamHeaders } from '../headers.js';

export async function throwBedrockStatus(status: number, headers: UpstreamHeaders, body: AsyncIterable<Uint8Array>, secrets: readonly string[]): Promise<never> {
  const error = statusErrorFromText(status, headers, await readErrorText(body), secrets);
  const name = firstHeader(headers, 'x-amzn-errortype')?.split(':')[0];
  if (name === 'ModelErrorException' || name === 'ModelNotReadyException') {
    throw new GatewayError('upstream_error', `${name}: ${error.message}`, { status: 502, upstreamStatus: status, retryable: true, retryAfterSeconds: error.retryAfterSeconds });
  }
  if (name === 'ServiceQuotaExceededException' || name === 'ThrottlingException') {
    throw new GatewayError('rate_limited', error.message, { status: 429, upstreamStatus: status, retryable: true, retryAfterSeconds: error.retryAfterSeconds });
  }
  throw error;
}
