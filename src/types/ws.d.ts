/** The part of `ws` (8.x) the Responses WebSocket transport uses; the package ships no types of its own. */
declare module 'ws' {
  import type { IncomingMessage } from 'node:http';
  import type { Duplex } from 'node:stream';
  import type { EventEmitter } from 'node:events';

  export interface PerMessageDeflateOptions {
    threshold?: number;
    serverNoContextTakeover?: boolean;
    clientNoContextTakeover?: boolean;
  }

  export interface ClientOptions {
    headers?: Record<string, string>;
    perMessageDeflate?: boolean;
  }

  export class WebSocket extends EventEmitter {
    /** A client socket (tests, tools); the gateway only serves. */
    constructor(address: string, options?: ClientOptions);
    static readonly OPEN: 1;
    readonly readyState: 0 | 1 | 2 | 3;
    readonly bufferedAmount: number;
    send(data: string | Buffer, callback?: (error?: Error) => void): void;
    ping(data?: Buffer | string, mask?: boolean, callback?: (error?: Error) => void): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
    on(event: 'message', listener: (data: Buffer | Buffer[] | ArrayBuffer, isBinary: boolean) => void): this;
    on(event: 'close', listener: (code: number, reason: Buffer) => void): this;
    on(event: 'pong', listener: (data: Buffer) => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    on(event: 'open', listener: () => void): this;
    on(event: 'unexpected-response', listener: (request: import('node:http').ClientRequest, response: IncomingMessage) => void): this;
    once(event: 'close', listener: (code: number, reason: Buffer) => void): this;
    once(event: 'open', listener: () => void): this;
    once(event: 'error', listener: (error: Error) => void): this;
  }

  export interface ServerOptions {
    noServer?: boolean;
    maxPayload?: number;
    perMessageDeflate?: boolean | PerMessageDeflateOptions;
  }

  export class WebSocketServer extends EventEmitter {
    constructor(options: ServerOptions);
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, callback: (socket: WebSocket) => void): void;
  }

  export default WebSocket;
}
