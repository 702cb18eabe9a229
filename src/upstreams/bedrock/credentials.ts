/**
 * AWS access keys from a bedrock channel's key (`auth: sigv4`, the default):
 * `ACCESS_KEY_ID:SECRET_ACCESS_KEY`, with `:SESSION_TOKEN` for temporary
 * credentials (none of the three holds a colon), or JSON
 * `{"accessKeyId","secretAccessKey","sessionToken"}` (also the AWS CLI's
 * `AccessKeyId`/`SecretAccessKey`/`SessionToken` spelling). Read by the
 * signer (signing.ts) and checked when a channel is written (the registry's
 * `keyProblem`), so a key that can never sign is refused then, by field.
 * Problems never quote the key.
 */
import { GatewayError } from '../../core/errors.js';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The credentials a key holds, or why it holds none. */
export function parseAwsCredentials(key: string): AwsCredentials | string {
  const text = key.trim();
  if (text.startsWith('{')) {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return 'is not valid JSON';
    }
    const accessKeyId = parsed.accessKeyId ?? parsed.AccessKeyId;
    const secretAccessKey = parsed.secretAccessKey ?? parsed.SecretAccessKey;
    const sessionToken = parsed.sessionToken ?? parsed.SessionToken;
    if (typeof accessKeyId !== 'string' || typeof secretAccessKey !== 'string' || accessKeyId === '' || secretAccessKey === '') return 'is JSON naming no accessKeyId and secretAccessKey';
    return typeof sessionToken === 'string' && sessionToken !== '' ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
  }
  const parts = text.split(':');
  if ((parts.length !== 2 && parts.length !== 3) || parts.some((part) => part === '')) {
    return 'is not ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN] (set `auth: api-key` for a Bedrock API key)';
  }
  return parts.length === 3 ? { accessKeyId: parts[0], secretAccessKey: parts[1], sessionToken: parts[2] } : { accessKeyId: parts[0], secretAccessKey: parts[1] };
}

/** The credentials a key holds, or the channel's credential refused (a 401 to the breakers: the key is benched). */
export function awsCredentials(key: string, channel: string): AwsCredentials {
  const read = parseAwsCredentials(key);
  if (typeof read === 'string') throw new GatewayError('upstream_error', `channel ${channel} cannot sign its requests: its key ${read}`, { status: 502, upstreamStatus: 401, retryable: true });
  return read;
}

/** Why a key can never serve a bedrock channel with these settings, or undefined. */
export function bedrockKeyProblem(key: string, settings: Record<string, unknown>): string | undefined {
  if (settings.auth === 'api-key') return undefined;
  const read = parseAwsCredentials(key);
  return typeof read === 'string' ? read : undefined;
}
