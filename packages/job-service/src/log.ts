// A minimal JSON-lines logger for worker processes (the API uses Fastify's logger).
import type { Logger } from './runner/executor.js';

const LEVELS = { debug: 20, info: 30, warn: 40, error: 50 } as const;

export function jsonLogger(level: string, base: Record<string, unknown>): Logger {
  const min = LEVELS[level as keyof typeof LEVELS] ?? 30;
  const write = (lvl: keyof typeof LEVELS) => (obj: object, msg: string) => {
    if (LEVELS[lvl] < min) return;
    process.stdout.write(JSON.stringify({ level: lvl, time: new Date().toISOString(), ...base, ...obj, msg }) + '\n');
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}
