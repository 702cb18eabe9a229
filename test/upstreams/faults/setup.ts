/**
 * What the fault tests need of a family, and the gateway they run against:
 * for each path (pass-through `pt-*`, translated `tr-*`) a channel on the
 * faulty upstream, a healthy channel after it, and a channel on the faulty
 * upstream alone (`ptsolo-*`, `trsolo-*`).
 */
import { startGateway, type TestGateway } from '../../support/gateway.js';
import type { GatewaySettings } from '../../../src/config/env.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import type { ClientEvent } from './client.js';
import { healthy, type UpstreamType } from './upstreams.js';

export interface FamilyUnderTest {
  name: string;
  nativeType: UpstreamType;
  translatedType: UpstreamType;
  clientKey: string;
  /** Asks for a chat answer the way this family's clients do. */
  send(gatewayUrl: string, key: string, model: string, stream: boolean): Promise<Response>;
  /** A plain answer in the family's shape. */
  isAnswer(body: any): boolean;
  /** The status of an upstream failure in this family (Google's codes have no 502). */
  upstreamFailureStatus: number;
  /** An error body in the family's shape. */
  isErrorBody(body: any): boolean;
  /** The family's error frame, as the last event of a stream. */
  isErrorFrame(event: ClientEvent): boolean;
}

function baseUrl(type: UpstreamType, origin: string): string {
  return type === 'openai-chat' || type === 'openai-responses' ? `${origin}/v1` : origin;
}

export async function startFaultGateway(family: FamilyUnderTest, settings: Partial<GatewaySettings>): Promise<{ bad: FakeUpstream; good: FakeUpstream; gw: TestGateway }> {
  const bad = await startFakeUpstream(healthy);
  const good = await startFakeUpstream(healthy);
  const channel = (name: string, type: UpstreamType, upstream: FakeUpstream, models: string[], priority: number) => ({
    name,
    type,
    baseUrl: baseUrl(type, upstream.origin),
    apiKey: `sk-upstream-${name}`,
    models,
    priority,
  });
  const gw = await startGateway({
    settings: { cooldownSeconds: 60, ...settings },
    config: {
      channels: [
        channel('native-bad', family.nativeType, bad, ['pt-*'], 10),
        channel('native-good', family.nativeType, good, ['pt-*'], 5),
        channel('native-solo', family.nativeType, bad, ['ptsolo-*'], 5),
        channel('translated-bad', family.translatedType, bad, ['tr-*'], 10),
        channel('translated-good', family.translatedType, good, ['tr-*'], 5),
        channel('translated-solo', family.translatedType, bad, ['trsolo-*'], 5),
      ],
      keys: [{ name: 'client', key: family.clientKey }],
      prices: { '*': { input: 1, output: 2 } },
    },
  });
  return { bad, good, gw };
}
