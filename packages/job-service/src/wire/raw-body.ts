// A large JSON body, kept as bytes: parsing and validating it (tens of MB of base64 matrices) would stall the
// event loop, so submission routes hand it to a thread that parses, validates and prepares it in one go.
export class RawJsonBody {
  constructor(readonly bytes: Buffer) {}
}

/** JSON.parse that refuses prototype-poisoning keys, like Fastify's own parser. */
export function parseJsonSafely(text: string): unknown {
  return JSON.parse(text, (k, v) => {
    if (k === '__proto__') throw new SyntaxError('forbidden key __proto__');
    if (k === 'constructor' && v !== null && typeof v === 'object' && 'prototype' in v)
      throw new SyntaxError('forbidden key constructor.prototype');
    return v;
  });
}
