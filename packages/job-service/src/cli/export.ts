// `evident-jobs export JOB_ID --kb PATH_OR_POSTGRES_URL [...]`: the command form for the bridge to the KB.
// The job service must not import the KB (ARCHITECTURE.md: imports go one way), so this runs the bridge's own
// program, `evident-export` from @evident/jobs-to-kb, as a child process with the same arguments and environment.
import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';

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
      // node_modules/.bin of the working directory too: `npx evident-jobs` puts it on PATH, a direct call may not.
      const PATH = [process.env.PATH ?? '', join(process.cwd(), 'node_modules', '.bin')].join(delimiter);
      const child = spawn('evident-export', args, { stdio: 'inherit', env: { ...process.env, PATH } });
      const code = await new Promise<number>((resolve) => {
        child.on('error', (e: NodeJS.ErrnoException) => {
          console.error(
            e.code === 'ENOENT'
              ? 'evident-jobs export runs evident-export, which is not installed: npm install @evident/jobs-to-kb'
              : `evident-jobs export: ${e.message}`,
          );
          resolve(127);
        });
        child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
      });
      process.exitCode = code;
    });
}
