// A job kind for the input-file tests: its prepared input holds `bytes` characters that gzip does not shrink much
// (a seeded pseudo-random base64 text), so a test can make a stored input of a chosen size; its run returns the
// input's length and a checksum, so a test sees that the run read the input whole. Not a production kind.
import { Type, type Static } from '@sinclair/typebox';
import type { JobKind } from '../src/kinds/job-kind.js';

export const BlobRequest = Type.Object(
  { bytes: Type.Integer({ minimum: 1, maximum: 8_000_000 }), seed: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
type BlobRequest = Static<typeof BlobRequest>;

export interface BlobInput {
  text: string;
}
export interface BlobResult {
  length: number;
  checksum: number;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The input text of a request: `bytes` characters of a seeded xorshift stream. */
export function blobText(bytes: number, seed: number): string {
  let x = (seed ^ 0x9e3779b9) >>> 0 || 1;
  const out = new Array<string>(bytes);
  for (let i = 0; i < bytes; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = ALPHABET[(x >>> 0) & 63]!;
  }
  return out.join('');
}

/** What a run of this text returns. */
export function blobResult(text: string): BlobResult {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) >>> 0;
  return { length: text.length, checksum: h };
}

export const blobKind: JobKind<BlobRequest, BlobInput, BlobResult> = {
  id: 'blob',
  route: '/v1/blob/run',
  requestSchema: BlobRequest,
  prepare: (req) => ({ text: blobText(req.bytes, req.seed) }),
  estimateSeconds: () => [1, 2],
  run: async (input) => blobResult(input.text),
  toCsv: (r) => `length,checksum\n${r.length},${r.checksum}\n`,
};

export default blobKind;
