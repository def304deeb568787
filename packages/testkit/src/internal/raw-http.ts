/**
 * A bare HTTP/1.1 exchange over a TCP socket, for the checks a `fetch` client cannot make:
 * whether a HEAD answer really carries no body bytes on the wire, and what a server does when a
 * client disappears in the middle of a request.
 * @module
 */
import { connect, type Socket } from 'node:net';

/** What came back over the socket. */
export interface RawAnswer {
  /** The status code from the status line. */
  status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Every byte after the blank line that ends the header block. */
  rest: Buffer;
}

function open(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Sends one request with `Connection: close` and reads until the server closes the socket.
 * @param url - The absolute `http:` URL.
 * @param method - The request method.
 * @param rawTarget - A request target sent exactly as given (e.g. with `..` segments), instead of
 *   the URL's normalized path and query.
 * @param timeoutMs - How long to wait for the server to finish.
 * @param headers - More request headers, by name.
 * @returns The parsed status line and headers, and the raw bytes after them.
 * @throws {Error} when the answer does not come within `timeoutMs`.
 */
export async function rawRequest(url: string, method: string, rawTarget?: string, timeoutMs = 5000, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const target = new URL(url);
  const socket = await open(target);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${method} ${url}: no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', (error) => (clearTimeout(timer), reject(error)));
    socket.once('close', () => (clearTimeout(timer), resolve(Buffer.concat(chunks))));
  });
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.write(`${method} ${rawTarget ?? target.pathname + target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n${extra}\r\n`);
  const bytes = await done;
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`${method} ${url}: the answer has no complete header block`);
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const received: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    received[name] = name in received ? `${received[name]}, ${value}` : value;
  }
  return { status: Number(statusLine.split(' ')[1]), headers: received, rest: bytes.subarray(end + 4) };
}

/**
 * Opens a connection, sends a request, then destroys the socket without reading the answer: the
 * server sees a client that went away.
 * @param url - The absolute `http:` URL.
 * @param complete - Send the whole header block (the server starts work for a client that is
 *   gone), or stop half-way through it (the server never gets a whole request).
 */
export async function abandonRequest(url: string, complete: boolean): Promise<void> {
  const target = new URL(url);
  const socket = await open(target);
  const head = `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n${complete ? '\r\n' : ''}`;
  await new Promise<void>((resolve) => socket.write(head, () => resolve()));
  socket.destroy();
}
