// External scorers over HTTP: nobody may run an arbitrary command through the API, so the operator registers
// named scorers in a JSON file (EVIDENT_EXTERNAL_SCORERS) and a request's ExternalProcess names one in
// `params.executable`; its command, arguments and timeout are the registration's, nothing of the request's.
import { isAbsolute } from 'node:path';
import { readFileSync } from 'node:fs';
import { runProcess, type ExternalProcessOptions, type ProcessRunner } from '@evident/compound-generation';
import type { RegisteredScorer } from '../job-kind.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const DEFAULT_TIMEOUT_S = 300;
const MAX_TIMEOUT_S = 86_400;

/** Reads and checks the registry file; throws an Error naming the file and the entry at fault. */
export function readExternalScorers(file: string): Record<string, RegisteredScorer> {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`EVIDENT_EXTERNAL_SCORERS ${file}: ${(e as Error).message}`);
  }
  const fail = (where: string, message: string) => new Error(`EVIDENT_EXTERNAL_SCORERS ${file}: ${where}: ${message}`);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw fail('/', 'must be an object of { name: { executable, args, timeout_s } }');
  }
  const out: Record<string, RegisteredScorer> = Object.create(null);
  for (const [name, entry] of Object.entries(doc)) {
    const at = `/${name}`;
    if (!NAME.test(name)) throw fail(at, 'a name is 1-64 letters, digits, _ . - (starting with a letter or digit)');
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw fail(at, 'must be an object');
    const { executable, args = [], timeout_s = DEFAULT_TIMEOUT_S, ...rest } = entry as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length) throw fail(`${at}/${unknown[0]}`, 'unknown key (a scorer has executable, args, timeout_s)');
    if (typeof executable !== 'string' || !isAbsolute(executable)) {
      throw fail(`${at}/executable`, 'must be the absolute path of a program');
    }
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
      throw fail(`${at}/args`, 'must be a list of strings (each one argument, no shell)');
    }
    if (typeof timeout_s !== 'number' || !(timeout_s > 0) || timeout_s > MAX_TIMEOUT_S) {
      throw fail(`${at}/timeout_s`, `must be a number of seconds above 0, at most ${MAX_TIMEOUT_S}`);
    }
    out[name] = { executable, args: [...args], timeout_s };
  }
  return out;
}

/**
 * How a request's profile may run external scorers: only registered ones, by name, with no arguments of the
 * request's; each run gets its registration's timeout.
 */
export function registeredScorersOption(
  scorers: Record<string, RegisteredScorer> | undefined,
  run: ProcessRunner = runProcess,
): ExternalProcessOptions {
  const registry = scorers ?? {};
  const names = Object.keys(registry);
  const byCommand = new Map(
    Object.values(registry).map((s) => [JSON.stringify([s.executable, ...s.args]), s.timeout_s * 1000]),
  );
  return {
    resolve(executable, args) {
      const scorer = Object.hasOwn(registry, executable) ? registry[executable] : undefined;
      if (!scorer) {
        return (
          `no external scorer named ${JSON.stringify(executable)} is registered on this server ` +
          (names.length ? `(registered: ${names.join(', ')})` : '(none is registered)') +
          ': over HTTP, ExternalProcess names a scorer the operator registered (EVIDENT_EXTERNAL_SCORERS), not a command'
        );
      }
      if (args.trim() !== '') {
        return `a registered scorer takes no args from a request (the server's registration of ${executable} sets them)`;
      }
      return { executable: scorer.executable, args: scorer.args };
    },
    runner: (request) =>
      run({
        ...request,
        timeoutMs: byCommand.get(JSON.stringify([request.executable, ...request.args])) ?? request.timeoutMs,
      }),
  };
}
