/** What a provider of Bedrock's Converse API supplies (see src/upstreams/endpoint.ts). */
import type { Endpoint, EndpointHeaders } from '../../endpoint.js';
import type { UpstreamCall } from '../../types.js';
import type { ConverseSettings } from './settings.js';

export interface ConverseEndpoint<Settings extends ConverseSettings> extends Endpoint<Settings> {
  /** `stream`: ConverseStream (an AWS event stream) rather than Converse (JSON). */
  url(call: UpstreamCall, stream: boolean): string;
  /** The headers before signing (`sign` adds the credential over the final body). */
  headers(call: UpstreamCall, stream: boolean): EndpointHeaders;
}
