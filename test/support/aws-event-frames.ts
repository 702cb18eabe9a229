/**
 * AWS event-stream messages as Bedrock frames them (`application/vnd.amazon.eventstream`),
 * encoded by the AWS SDK's own codec: what the loopback Bedrock fakes send.
 */
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';

/** One message to send: an event by name, or (`exception`) a stream exception by type. */
export interface StreamMessage {
  type: string;
  payload: unknown;
  exception?: boolean;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

export function frame(message: StreamMessage): Uint8Array {
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: message.exception ? 'exception' : 'event' },
      [message.exception ? ':exception-type' : ':event-type']: { type: 'string', value: message.type },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(JSON.stringify(message.payload)),
  });
}
