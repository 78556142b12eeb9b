// Raw HTTP/1.1 over a socket: what fetch cannot send (malformed framing, stalled bodies) and what it hides
// (whether the server closed the connection).
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
  /** The server ended the connection before `waitMs` ran out. */
  closed: boolean;
}

export function portOf(url: string): number {
  return Number(new URL(url).port);
}

export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Writes `chunks` (the first at once, the others as given) and reads until the server closes or `waitMs`. */
export async function rawRequest(port: number, data: string | Buffer, waitMs = 5000): Promise<RawAnswer> {
  const socket = await openSocket(port);
  return readAnswer(socket, data, waitMs);
}

export function readAnswer(socket: Socket, data: string | Buffer | undefined, waitMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(parts).toString('latin1'), closed));
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d) => parts.push(d));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    if (data !== undefined) socket.write(data);
  });
}

function parse(raw: string, closed: boolean): RawAnswer {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const text = split < 0 ? '' : raw.slice(split + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body, text, closed };
}

/** `{ error: { code, message } }` with string code and message. */
export function hasErrorShape(b: any): boolean {
  return (
    b !== null &&
    typeof b === 'object' &&
    typeof b.error === 'object' &&
    typeof b.error.code === 'string' &&
    typeof b.error.message === 'string'
  );
}

/** Requests the HTTP parser (or the router) refuses, with the status each must get. */
export const MALFORMED: Array<{ name: string; data: string | Buffer; status: number }> = [
  {
    name: 'bad Content-Length',
    data: 'POST /x HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n',
    status: 400,
  },
  {
    name: 'bad chunk encoding',
    data: 'POST /x HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    status: 400,
  },
  {
    name: 'NUL in a header',
    data: Buffer.from('GET /x HTTP/1.1\r\nHost: localhost\r\nX-A: a\0b\r\n\r\n', 'latin1'),
    status: 400,
  },
  {
    name: 'NUL in the path',
    data: Buffer.from('GET /a\0b HTTP/1.1\r\nHost: localhost\r\n\r\n', 'latin1'),
    status: 400,
  },
  { name: 'method FOO', data: 'FOO /x HTTP/1.1\r\nHost: localhost\r\n\r\n', status: 400 },
  {
    name: 'headers too large',
    data: `GET /x HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    status: 431,
  },
];
