/**
 * Sealed reasoning state: an upstream's opaque proof of its reasoning (an
 * Anthropic thinking signature or redacted data, a Gemini thought signature,
 * an OpenAI encrypted reasoning item) as the gateway hands it to a client of
 * another dialect. The client keeps it in its dialect's own opaque slot and
 * sends it back; only this gateway (any instance holding the same secret key)
 * can open it, and it names its origin (the protocol whose providers all take
 * it, or the provider whose account it is bound to), so it goes back to
 * upstreams of that origin only.
 *
 * Token: standard base64 of `marker | iv | tag | ciphertext` (AES-256-GCM).
 * The 3-byte marker makes every token start with `swy1`; standard base64 is
 * what the strictest slot (Gemini `thoughtSignature`) accepts.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * What the state proves: a thought's signature, redacted thinking data, a
 * tool call's signature, or (`compaction`) the summary the gateway wrote
 * when it compacted a conversation for a client (its `value` is the summary).
 */
export type ReasoningKind = 'thinking' | 'redacted' | 'call' | 'compaction';

export interface ReasoningState {
  /**
   * Who may take the state back, as the serving endpoint declares it
   * (src/upstreams/endpoint.ts `Serving`): a protocol (`anthropic` for every
   * Messages provider, `gemini` for every content-generation one) or an
   * account-bound provider (`openai-responses`, `azure-openai/responses`…).
   */
  origin: string;
  kind: ReasoningKind;
  /** The upstream's own value, exactly as it gave it. */
  value: string;
  /** The thought a signature proves, carried when the client may not send it back verbatim. */
  text?: string;
}

const TOKEN_PREFIX = 'swy1';
const MARKER = Buffer.from(TOKEN_PREFIX, 'base64');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_LABEL = 'switchyard/reasoning-state/v1';
const kindCodes: Record<ReasoningKind, string> = { thinking: 't', redacted: 'r', call: 'c', compaction: 's' };

interface Payload {
  o: string;
  k: string;
  v: string;
  t?: string;
}

/** Whether a value has the form of a gateway token (it may still fail to open). */
export function isSealedReasoning(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(TOKEN_PREFIX) && value.length >= 4 * Math.ceil((MARKER.length + IV_BYTES + TAG_BYTES) / 3);
}

/** Anything that can derive a key from the gateway's secret (see storage/secrets.ts). */
export interface KeySource {
  deriveKey(label: string): Buffer;
}

const sealers = new WeakMap<KeySource, ReasoningSealer>();

export class ReasoningSealer {
  constructor(private readonly key: Buffer) {}

  /** The sealer of a gateway instance, derived once from its secret key. */
  static of(secrets: KeySource): ReasoningSealer {
    let sealer = sealers.get(secrets);
    if (!sealer) sealers.set(secrets, (sealer = new ReasoningSealer(secrets.deriveKey(KEY_LABEL))));
    return sealer;
  }

  seal(state: ReasoningState): string {
    const payload: Payload = { o: state.origin, k: kindCodes[state.kind], v: state.value };
    if (state.text) payload.t = state.text;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(MARKER);
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return Buffer.concat([MARKER, iv, cipher.getAuthTag(), ciphertext]).toString('base64');
  }

  /** The state inside a token; undefined when it is not one, or was sealed with another key, or was altered. */
  open(token: string): ReasoningState | undefined {
    if (!isSealedReasoning(token)) return undefined;
    const bytes = Buffer.from(token, 'base64');
    const iv = bytes.subarray(MARKER.length, MARKER.length + IV_BYTES);
    const tag = bytes.subarray(MARKER.length + IV_BYTES, MARKER.length + IV_BYTES + TAG_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(MARKER);
      decipher.setAuthTag(tag);
      const plain = Buffer.concat([decipher.update(bytes.subarray(MARKER.length + IV_BYTES + TAG_BYTES)), decipher.final()]);
      return fromPayload(JSON.parse(plain.toString('utf8')) as Payload);
    } catch {
      return undefined;
    }
  }
}

function fromPayload(payload: Payload): ReasoningState | undefined {
  const kind = (Object.keys(kindCodes) as ReasoningKind[]).find((name) => kindCodes[name] === payload.k);
  if (!kind || typeof payload.o !== 'string' || typeof payload.v !== 'string') return undefined;
  const state: ReasoningState = { origin: payload.o, kind, value: payload.v };
  if (typeof payload.t === 'string') state.text = payload.t;
  return state;
}
