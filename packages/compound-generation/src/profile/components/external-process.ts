// ExternalProcess (REINVENT 4: reinvent_plugins/components/comp_external_process.py): a scorer of the user's
// own, run once per batch. `executable` (made absolute against the working directory, as REINVENT's
// os.path.abspath does: give a full path such as /usr/bin/python3), `args` (one string, split as a POSIX shell
// would, shlex.split), and per endpoint the `property` of the payload to read. All endpoints of one component
// run the same command (REINVENT's rule). The protocol is in ../external/protocol.ts, the process runner in
// ../external/run-process.ts.
import { isAbsolute, resolve } from 'node:path';
import { split as shlexSplit } from 'shlex';
import { parseScorerOutput, scorerInput } from '../external/protocol.js';
import type { ComponentDef } from './types.js';

/** Python's shlex.split (POSIX rules; nothing is expanded, no shell runs), or why the text cannot be split. */
function splitArgs(text: string): string[] | string {
  try {
    return shlexSplit(text);
  } catch (e) {
    return `cannot be split into arguments: ${(e as Error).message}`;
  }
}

export const EXTERNAL_PROCESS: ComponentDef = {
  name: 'ExternalProcess',
  role: 'score',
  reinvent: true,
  params: ['executable', 'args', 'property'],
  build(endpoints, ctx) {
    const settings = ctx.externalProcess;
    if (settings === false) {
      ctx.problems.push({
        path: ctx.path,
        message: 'ExternalProcess is not allowed here (an arbitrary command cannot be run from this profile)',
      });
    }
    let command: { executable: string; args: readonly string[] } | undefined;
    let first: { executable: string; args: string } | undefined;
    const properties = endpoints.map((p, i) => {
      const executable = p.string('executable');
      const args = p.string('args', { default: '' });
      const property = p.string('property');
      p.finish('ExternalProcess', ['executable', 'args', 'property']);
      if (!first) first = { executable, args };
      else if (first.executable !== executable || first.args !== args) {
        p.problem(
          'executable',
          `endpoint ${i} runs "${executable} ${args}" but endpoint 0 runs "${first.executable} ${first.args}": one command per ExternalProcess component (use one component per command)`,
        );
      }
      return property;
    });
    if (first?.executable && settings !== false) {
      const p0 = endpoints[0]!;
      if (settings.resolve) {
        const r = settings.resolve(first.executable, first.args);
        if (typeof r === 'string') p0.problem('executable', r);
        else command = r;
      } else {
        const args = splitArgs(first.args);
        if (typeof args === 'string') p0.problem('args', args);
        else {
          const exe = isAbsolute(first.executable) ? first.executable : resolve(settings.cwd, first.executable);
          command = { executable: exe, args };
        }
      }
    }
    const seen = new Set<string>();
    properties.forEach((prop, i) => {
      if (seen.has(prop)) endpoints[i]!.problem('property', `property "${prop}" is read by two endpoints`);
      seen.add(prop);
    });
    return {
      async compute(mols, signal, counters) {
        if (settings === false || !command) return properties.map(() => mols.map(() => null));
        if (mols.length === 0) return properties.map(() => []);
        const smiles = mols.map((m) => m.smiles);
        counters.external_runs++;
        counters.external_smiles += smiles.length;
        const argv = [command.executable, ...command.args];
        const out = await settings.runner({
          executable: command.executable,
          args: command.args,
          input: scorerInput(smiles),
          timeoutMs: settings.timeoutMs,
          maxOutputBytes: settings.maxOutputBytes,
          signal,
          cwd: settings.cwd,
        });
        return parseScorerOutput(out.stdout, properties, smiles.length, argv, out.stderr);
      },
    };
  },
};
