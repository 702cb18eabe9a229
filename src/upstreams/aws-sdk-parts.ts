/**
 * The parts of the AWS SDK the bedrock type uses: the Signature Version 4
 * signer and the event-stream codec, with the hash and text codecs they
 * take. One module, reached only through `aws-sdk.ts`'s `import()`, so that
 * the bundle builds it into a file of its own, read at a bedrock channel's
 * first request rather than at every start.
 */
export { EventStreamCodec } from '@smithy/core/event-streams';
export { fromUtf8, Hash, toUtf8 } from '@smithy/core/serde';
export { SignatureV4 } from '@smithy/signature-v4';
