/** What a provider of the Responses dialect supplies (see src/upstreams/endpoint.ts). */
import type { Endpoint, EndpointHeaders } from '../../endpoint.js';
import type { UpstreamCall } from '../../types.js';
import type { ResponsesSettings } from './settings.js';
import type { OperationAddress } from '../../plain-pass-through.js';

/** `responses`: a response, plain or streamed, and the pass-through; `compact`: a remote compaction; `input-tokens`: a native client's count. */
export type ResponsesOperation = 'responses' | 'compact' | 'input-tokens';

/** The routing word a family sets on a pass-through request to reach the `compact` address. */
export const COMPACT_METHOD = 'compact';

export interface ResponsesEndpoint<Settings extends ResponsesSettings> extends Endpoint<Settings> {
  url(call: UpstreamCall, operation: ResponsesOperation): string;
  headers(call: UpstreamCall): EndpointHeaders;
  /** OpenAI's moderations at the server's own endpoint (plain-pass-through.ts), where the provider's servers may have one. */
  readonly moderations?: OperationAddress;
  /** OpenAI's image endpoints under the server's `<base>/images` (images-pass-through.ts), where the provider's servers may have them. */
  readonly images?: OperationAddress;
  /** OpenAI's audio endpoints under the server's `<base>/audio` (audio-pass-through.ts), where the provider's servers may have them. */
  readonly audio?: OperationAddress;
}
