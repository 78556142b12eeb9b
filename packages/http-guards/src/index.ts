// What Node's HTTP server decides before Fastify sees a request: how long a request (headers, body) and an idle
// keep-alive connection may take, how many connections one address may hold, and the answer to a request the
// parser refuses (bad framing, oversized headers, a timeout), in the one error shape with `Connection: close`.
// Both HTTP servers (the job API and the KB console) take them from here; it knows nothing of either.
import { type IncomingMessage, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { HTTP_ERRORS, type HttpErrorCode } from './errors.js';

export * from './errors.js';

export interface HttpLimits {
  /** The whole request (headers and body) must arrive within this; else 408 and the socket is closed. */
  requestTimeoutMs: number;
  /** The request's headers must arrive within this; else 408 and the socket is closed. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections one remote address may hold; one more is answered 429 and closed. */
  maxConnectionsPerClient: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: 120_000,
  headersTimeoutMs: 20_000,
  keepAliveTimeoutMs: 5_000,
  maxConnectionsPerClient: 64,
};

/** The limits as Fastify server options (node checks the timeouts every `connectionsCheckingInterval`). */
export function fastifyTimeoutOptions(limits: HttpLimits) {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
  };
}

/** A complete HTTP/1.1 answer with the error body (its status HTTP_ERRORS's for `code`), ending the connection. */
export function rawErrorResponse(code: HttpErrorCode, message: string, headers: Record<string, string> = {}): string {
  const status = HTTP_ERRORS[code].status!;
  const body = JSON.stringify({ error: { code, message } });
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    extra +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Answers, in the error shape and with `Connection: close`, the requests Node's server would not pass to the
 * router: CONNECT, which it leaves unanswered without a 'connect' listener (405 `method_not_allowed`, `Allow`
 * listing what the server answers), and an `Expect` other than 100-continue, which it answers with an empty 417
 * (417 `expectation_failed`). Both close the connection: what follows on it is not an HTTP request to route.
 */
export function answerUnroutedRequests(server: Server, allowed: () => readonly string[]): void {
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    const allow = allowed().join(', ');
    socket.on('error', () => {});
    socket.end(rawErrorResponse('method_not_allowed', `CONNECT is not served here; use ${allow}`, { Allow: allow }));
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({
      error: {
        code: 'expectation_failed',
        message: `Expect: ${String(req.headers.expect).slice(0, 100)} is not supported; only 100-continue is`,
      },
    });
    res.shouldKeepAlive = false;
    res.writeHead(HTTP_ERRORS.expectation_failed.status!, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
  });
}

/** The code and message of a parser's refusal; anything the parser refuses but a timeout or large headers is 400. */
export function clientErrorAnswer(err: NodeJS.ErrnoException): [HttpErrorCode, string] {
  switch (err.code) {
    // Deliberate likeness: one case per parser error code, a table written as a switch.
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ['request_timeout', 'the request (headers and body) did not arrive in time'];
    case 'HPE_HEADER_OVERFLOW':
      return ['headers_too_large', 'the request headers are larger than the server accepts'];
    case 'HPE_INVALID_METHOD':
      return ['invalid_request', 'the request method is not an HTTP method'];
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return ['invalid_request', 'the Content-Length header is malformed'];
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return ['invalid_request', 'the chunked body is malformed'];
    case 'HPE_INVALID_URL':
      return ['invalid_request', 'the request target is malformed'];
    case 'HPE_INVALID_HEADER_TOKEN':
      return ['invalid_request', 'a request header is malformed'];
    default:
      return ['invalid_request', 'the request is not valid HTTP/1.1'];
  }
}

/** Fastify's `clientErrorHandler`: the parser's refusal in the error shape, then the connection closes. */
export function clientErrorHandler() {
  return (err: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [code, message] = clientErrorAnswer(err);
    socket.end(rawErrorResponse(code, message));
  };
}

/** Caps the connections one remote address holds open; the one past the cap is answered 429 and closed. */
export function capConnectionsPerClient(server: Server, cap: number): void {
  if (!(cap > 0)) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const n = open.get(address) ?? 0;
    if (n >= cap) {
      socket.end(rawErrorResponse('too_many_connections', `more than ${cap} open connections from one address`));
      socket.destroySoon();
      return;
    }
    open.set(address, n + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** The routes' URL patterns, to tell an unknown path (404) from a known one asked with another method (405). */
export class RouteMethods {
  private readonly routes: Array<{ pattern: RegExp; method: string }> = [];

  /** Fastify's `onRoute` hook. Catch-all patterns (a static root) are left out: they would make every path known. */
  add(route: { url: string; method: string | string[] }): void {
    if (route.url.includes('*')) return;
    // Fastify patterns are plain segments and `:name` parameters here; a regexp beats a second router (why hand-written).
    const source = route.url
      .split('/')
      .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const pattern = new RegExp(`^${source}/?$`);
    for (const method of [route.method].flat()) this.routes.push({ pattern, method: method.toUpperCase() });
  }

  /** Every method some route answers (HEAD with GET): what a request for no resource (CONNECT) may use. */
  all(): string[] {
    const methods = new Set(this.routes.map((r) => r.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }

  /** The methods the path answers (empty: the path is unknown). */
  allowed(url: string): string[] {
    const path = url.split('?')[0] ?? '';
    const methods = new Set<string>();
    for (const r of this.routes) if (r.pattern.test(path)) methods.add(r.method);
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}
