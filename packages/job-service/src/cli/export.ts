// `evident-jobs export JOB_ID --kb PATH_OR_POSTGRES_URL [...]`: the command form for the bridge to the KB.
// The job service must not import the KB (ARCHITECTURE.md: imports go one way), so this runs the bridge's own
// program, `evident-export` from @evident/jobs-to-kb, as a child process with the same arguments and environment.
import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { constants } from 'node:os';

/** The bridge's program, as @evident/jobs-to-kb exports it (its bin's file, or its source under evident-source). */
const BRIDGE_PROGRAM = '@evident/jobs-to-kb/cli';

export type BridgeProgram = { file: string; execArgv: string[] } | { error: string };

/**
 * Where `evident-export` is: resolved from this file as Node resolves an import of it (the node_modules of this
 * installation and of its parents, with the conditions this process runs under), never from the current folder or
 * PATH, where any file of that name could stand. It runs with this Node (process.execPath); from the sources
 * (evident-source, under tsx) with the loader flags this process was given.
 */
export function bridgeProgram(from: string | URL = import.meta.url): BridgeProgram {
  try {
    const file = createRequire(from).resolve(BRIDGE_PROGRAM);
    return { file, execArgv: file.endsWith('.ts') ? [...process.execArgv] : [] };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      error:
        code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND'
          ? 'evident-jobs export runs evident-export from @evident/jobs-to-kb, which is not installed beside ' +
            '@evident/job-service: npm install @evident/jobs-to-kb'
          : `evident-jobs export cannot find evident-export in @evident/jobs-to-kb (${(e as Error).message}); ` +
            'install @evident/jobs-to-kb of the same version as @evident/job-service',
    };
  }
}

export function exportCommand(program: Command): void {
  program
    .command('export')
    .description(
      "write a finished job's findings into an Evident KB as claims (runs evident-export, @evident/jobs-to-kb)",
    )
    .helpOption(false)
    .allowUnknownOption(true)
    .argument('[args...]', 'JOB_ID --kb PATH_OR_POSTGRES_URL [--min-priority X] [--top N] (see evident-export --help)')
    .action(async (args: string[]) => {
      const bridge = bridgeProgram();
      if ('error' in bridge) {
        console.error(bridge.error);
        process.exitCode = 127;
        return;
      }
      const child = spawn(process.execPath, [...bridge.execArgv, bridge.file, ...args], { stdio: 'inherit' });
      // A stop asked of this process is the child's to act on; this one ends with it.
      const forward = (signal: NodeJS.Signals) => child.kill(signal);
      process.on('SIGINT', forward);
      process.on('SIGTERM', forward);
      const code = await new Promise<number>((resolve) => {
        child.on('error', (e) => {
          console.error(`evident-jobs export: cannot run ${bridge.file}: ${e.message}`);
          resolve(126);
        });
        child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)));
      });
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      process.exitCode = code;
    });
}
