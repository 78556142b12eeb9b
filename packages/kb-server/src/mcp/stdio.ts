// The stdio transport of kb-mcp: newline-delimited JSON-RPC 2.0 on stdin/stdout, with a bound on each message.
//
// Written by hand instead of the SDK's StdioServerTransport because that one (SDK 1.x) (1) buffers all of stdin
// up to 10 MiB with a Buffer.concat per chunk and, past that, closes the transport, so the server exited with
// status 0 and no message; (2) drops a line that is not JSON or not a JSON-RPC message with no reply at all (only
// an onerror), so a client waits forever; JSON-RPC 2.0 requires -32700 / -32600 replies with id null. This one
// reads line by line, holds at most `maxMessageBytes` of one line (the rest of an oversize line is discarded as it
// arrives), answers every malformed message, and keeps serving.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** Default bound on one incoming message (one line), in bytes. */
export const MCP_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export interface BoundedStdioOptions {
  /** Largest accepted message (one line, without its newline), in bytes. Default MCP_MAX_MESSAGE_BYTES. */
  maxMessageBytes?: number;
  /** Told about each refused message (for the log; never stdout). */
  onRefused?: (code: number, message: string) => void;
}

type RequestId = string | number | null;

export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly maxMessageBytes: number;
  private parts: Buffer[] = [];
  private size = 0;
  /** Inside a line already refused as too large: bytes are dropped up to its newline. */
  private discarding = false;
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly options: BoundedStdioOptions = {},
  ) {
    const max = options.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES;
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('maxMessageBytes must be a positive integer');
    this.maxMessageBytes = max;
  }

  private readonly onData = (chunk: Buffer | string) => {
    try {
      this.read(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    } catch (e) {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  };
  private readonly onStreamError = (e: Error) => this.onerror?.(e);

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioServerTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  private read(chunk: Buffer): void {
    let pos = 0;
    while (pos <= chunk.length) {
      const nl = chunk.indexOf(10, pos);
      const piece = chunk.subarray(pos, nl === -1 ? chunk.length : nl);
      if (!this.discarding) {
        if (this.size + piece.length > this.maxMessageBytes) {
          // Refused as soon as it is known, so a client that never ends the line still gets its answer.
          this.parts = [];
          this.size = 0;
          this.discarding = true;
          this.refuse(
            ErrorCode.InvalidRequest,
            `Invalid Request: message larger than ${this.maxMessageBytes} bytes (the limit of this server)`,
            null,
            { limit_bytes: this.maxMessageBytes },
          );
        } else if (piece.length > 0) {
          this.parts.push(piece);
          this.size += piece.length;
        }
      }
      if (nl === -1) return;
      pos = nl + 1;
      if (this.discarding) this.discarding = false;
      else {
        const line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
        this.parts = [];
        this.size = 0;
        this.handleLine(line.toString('utf8'));
      }
    }
  }

  private handleLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      this.refuse(ErrorCode.ParseError, `Parse error: ${(e as Error).message}`, null);
      return;
    }
    if (Array.isArray(value)) {
      // MCP (2025-06-18) dropped JSON-RPC batches; one refusal for the whole array.
      this.refuse(
        ErrorCode.InvalidRequest,
        'Invalid Request: batches are not supported; send one message a line',
        null,
      );
      return;
    }
    if (value === null || typeof value !== 'object') {
      this.refuse(ErrorCode.InvalidRequest, 'Invalid Request: a message is a JSON object', null);
      return;
    }
    const obj = value as Record<string, unknown>;
    const id: RequestId = typeof obj.id === 'string' || typeof obj.id === 'number' ? obj.id : null;
    if (obj.jsonrpc !== '2.0') {
      this.refuse(ErrorCode.InvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`, id);
      return;
    }
    if (!('method' in obj) && !('result' in obj) && !('error' in obj)) {
      this.refuse(ErrorCode.InvalidRequest, 'Invalid Request: "method" is missing', id);
      return;
    }
    if ('method' in obj && typeof obj.method !== 'string') {
      this.refuse(ErrorCode.InvalidRequest, 'Invalid Request: "method" must be a string', id);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      this.refuse(
        ErrorCode.InvalidRequest,
        `Invalid Request${where}: ${issue?.message ?? 'not a JSON-RPC 2.0 message'}`,
        id,
      );
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private refuse(code: number, message: string, id: RequestId, data?: Record<string, unknown>): void {
    this.options.onRefused?.(code, message);
    const body = { jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } };
    this.write(`${JSON.stringify(body)}\n`).catch((e) => this.onerror?.(e as Error));
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(text)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.size = 0;
    this.onclose?.();
  }
}
