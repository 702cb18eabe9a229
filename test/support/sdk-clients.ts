/**
 * The official SDKs pointed at a test gateway with one client key, as the
 * end-to-end tests of the upstream types drive it: no retries, so a refusal
 * is seen as the gateway gave it.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';

export interface SdkClients {
  anthropic: Anthropic;
  openai: OpenAI;
  genai: GoogleGenAI;
}

export function sdkClients(gatewayUrl: string, clientKey: string): SdkClients {
  return {
    anthropic: new Anthropic({ baseURL: gatewayUrl, apiKey: clientKey, maxRetries: 0 }),
    openai: new OpenAI({ baseURL: `${gatewayUrl}/v1`, apiKey: clientKey, maxRetries: 0 }),
    genai: new GoogleGenAI({ apiKey: clientKey, httpOptions: { baseUrl: gatewayUrl } }),
  };
}
