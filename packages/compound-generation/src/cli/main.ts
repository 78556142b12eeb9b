#!/usr/bin/env node
// evident-design: molecule design for a REINVENT 4 scoring profile, on this machine (no server).
import { EvidentError } from '@evident/contract';
import { GenerationAbortedError } from '../errors.js';
import { HELP, readCommand, UsageError } from './args.js';
import { runOptimize } from './optimize-command.js';

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

async function main(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  // First Ctrl-C stops at the next batch (a running external scorer is ended); a second one leaves at once.
  process.once('SIGINT', () => {
    controller.abort();
    process.once('SIGINT', () => process.exit(EXIT_INTERRUPTED));
  });
  try {
    const command = readCommand(argv);
    if (command.kind === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    await runOptimize(command.args, process.stderr, controller.signal);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`evident-design: ${e.message}\n`);
      return EXIT_USAGE;
    }
    if (e instanceof GenerationAbortedError) {
      process.stderr.write('evident-design: interrupted; nothing written\n');
      return EXIT_INTERRUPTED;
    }
    const message = e instanceof EvidentError ? e.message : ((e as Error)?.stack ?? String(e));
    process.stderr.write(`evident-design: the run failed: ${message}\n`);
    return EXIT_FAILED;
  }
}

process.exitCode = await main(process.argv.slice(2));
