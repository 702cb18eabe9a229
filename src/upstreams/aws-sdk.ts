/**
 * The AWS SDK's parts (aws-sdk-parts.ts), loaded once, at first use: the
 * module itself once loaded (no await on later requests), else the one load
 * in flight.
 */
export type AwsSdk = typeof import('./aws-sdk-parts.js');

let loaded: AwsSdk | undefined;
let loading: Promise<AwsSdk> | undefined;

export function awsSdk(): AwsSdk | Promise<AwsSdk> {
  if (loaded) return loaded;
  loading ??= import('./aws-sdk-parts.js').then((sdk) => (loaded = sdk));
  return loading;
}
