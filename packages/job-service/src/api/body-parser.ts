// The job API's JSON body parser. Small bodies are parsed here; a POST body above the inline limit is only
// collected (into one buffer that owns its memory, so it moves to a thread without a copy) and scanned as it
// arrives (wire/body-scan.ts): a value larger than the route's schema allows, or a body that is not an object,
// is refused at once and the rest of the body is read and dropped, never kept.
import { createHash, type Hash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { ServiceConfig } from '../config.js';
import { ApiError, invalidJson, invalidRequest } from '../errors.js';
import { bodyBounds } from '../wire/body-bounds.js';
import { BodyScanner } from '../wire/body-scan.js';
import { parseJsonSafely, RawJsonBody } from '../wire/raw-body.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** SHA-256 (hex) of the body's bytes, as they arrived: made only for a POST with an Idempotency-Key. */
    bodyDigest: string | null;
  }
}

const tooLarge = () => new ApiError('payload_too_large', 'the request body is larger than the configured limit');

export function addJsonBodyParser(
  app: FastifyInstance,
  config: Pick<ServiceConfig, 'bodyLimitBytes' | 'inlineJsonLimitBytes'>,
): void {
  const limit = config.bodyLimitBytes;
  const inline = config.inlineJsonLimitBytes;
  // JSON only: Fastify's text/plain parser would hand a string to the schema (400) where the API promises 415.
  app.removeAllContentTypeParsers();
  // Any other media type: a body-less request goes through (no route but POST reads a body); a body is 415,
  // decided from the headers before any of the body is read or buffered.
  app.addContentTypeParser('*', (req, _payload, done) => {
    const h = req.headers;
    if (h['transfer-encoding'] === undefined && (h['content-length'] ?? '0') === '0') return done(null, undefined);
    done(new ApiError('unsupported_media_type', 'send the body as application/json'));
  });
  app.addContentTypeParser('application/json', (req, payload, done) => {
    const header = req.headers['content-length'];
    const declared = header === undefined ? undefined : Number(header);
    if (declared !== undefined && declared > limit) return done(tooLarge(), undefined);
    const large = req.method === 'POST';
    let chunks: Buffer[] = [];
    let received = 0;
    // A large body goes into one buffer of its declared length (pages are only touched as bytes arrive).
    let whole: Buffer | undefined;
    let scanner: BodyScanner | undefined;
    let finished = false;
    // The request an Idempotency-Key stands for is its bytes: hashed as they arrive, never kept for it.
    let digest: Hash | undefined =
      large && req.headers['idempotency-key'] !== undefined ? createHash('sha256') : undefined;

    const finish = (err: Error | null, body?: unknown) => {
      if (finished) return;
      finished = true;
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      chunks = [];
      whole = undefined;
      if (digest) {
        if (!err) req.bodyDigest = digest.digest('hex');
        digest = undefined;
      }
      // Whatever else the client sends is read and dropped (the stream keeps flowing without a listener).
      payload.on('error', () => {});
      if (err) payload.resume();
      done(err, body);
    };

    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return finish(tooLarge());
      digest?.update(chunk);
      if (large && !scanner && received > inline) {
        scanner = new BodyScanner(boundsOf(req), inline);
        if (declared !== undefined) whole = Buffer.allocUnsafeSlow(declared);
        let at = 0;
        for (const c of chunks) {
          const refused = scanner.write(c);
          if (refused) return finish(refused);
          if (whole) at += c.copy(whole, at);
        }
        if (whole) chunks = [];
      }
      if (scanner) {
        const refused = scanner.write(chunk);
        if (refused) return finish(refused);
      }
      if (whole) {
        if (received > whole.length) return finish(invalidRequest('the body is longer than its Content-Length'));
        chunk.copy(whole, received - chunk.length);
      } else chunks.push(chunk);
    };

    const onEnd = () => {
      if (declared !== undefined && received !== declared) {
        return finish(invalidRequest('the Content-Length does not match the body'));
      }
      if (scanner) {
        let body = whole;
        if (!body) {
          body = Buffer.allocUnsafeSlow(received);
          let at = 0;
          for (const c of chunks) at += c.copy(body, at);
        }
        return finish(null, new RawJsonBody(body));
      }
      // The seed sends Content-Type: application/json on every request, body or not (DELETE, GET).
      if (received === 0 && req.method !== 'POST') return finish(null, undefined);
      if (received === 0) return finish(invalidJson('the body is empty but Content-Type says JSON'));
      // Valid JSON with a forbidden key, or nested too deep, is invalid_parameters naming it, not invalid_json.
      try {
        finish(null, parseJsonSafely(Buffer.concat(chunks, received)));
      } catch (e) {
        finish(e instanceof SyntaxError ? invalidJson() : (e as Error));
      }
    };

    const onError = (e: Error) => finish(e);

    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  });
}

const ANY = {} as TSchema;

/** The scan's bounds: those of the route's body schema; none without one. */
function boundsOf(req: FastifyRequest) {
  return bodyBounds((req.routeOptions.schema?.body as TSchema | undefined) ?? ANY);
}
