// VinaDocking: the docking score (kcal/mol, lower binds better) through the DockingPort the caller hands the
// profile (the engine itself runs no docking program: the job service or a benchmark plugs in
// @evident/docking). A molecule with unspecified stereo is docked as each of its stereoisomers (at most
// `max_isomers`, default 4) and scores its best one; every isomer docked is one docking call. A molecule Vina
// cannot dock has no value and scores 0 for this component (not NaN: a mean that left docking out would rank
// undockable molecules on their other components alone). Not a REINVENT 4 component (REINVENT docks through
// DockStream or Maize); pair it with reverse_sigmoid, e.g. low = -11, high = -5.
import { enumerateStereoisomers } from '../../chem/stereo.js';
import { MAX_ISOMERS } from '../../generation/docking-rounds.js';
import type { RawValue } from '../external/protocol.js';
import type { ComponentDef } from './types.js';

// Deliberate likeness: every scoring component is a ComponentDef entry of this shape (name, role, params, build).
export const VINA_DOCKING: ComponentDef = {
  name: 'VinaDocking',
  role: 'score',
  reinvent: false,
  params: ['exhaustiveness', 'max_isomers'],
  build(endpoints, ctx) {
    const ends = endpoints.map((p) => {
      const exhaustiveness = p.has('exhaustiveness')
        ? p.number('exhaustiveness', { integer: true, min: 1, max: 64 })
        : undefined;
      const maxIsomers = p.number('max_isomers', { default: MAX_ISOMERS, integer: true, min: 1, max: 32 });
      p.finish('VinaDocking', ['exhaustiveness', 'max_isomers']);
      return { exhaustiveness, maxIsomers };
    });
    const port = ctx.docking;
    if (!port) {
      ctx.problems.push({
        path: ctx.path,
        message: 'VinaDocking needs a docking engine: load the profile with a docking port (options.docking)',
      });
    }
    return {
      missing: 'zero',
      compute: (mols, signal, counters) =>
        Promise.all(
          ends.map((e) =>
            Promise.all(
              mols.map(async (m): Promise<RawValue> => {
                if (!port) return null;
                let isomers: string[];
                try {
                  ({ isomers } = enumerateStereoisomers(m.rd, m.smiles, { max: e.maxIsomers }));
                } catch {
                  // A canonical SMILES RDKit cannot read back: not dockable, like a docking failure.
                  return null;
                }
                const scores = await Promise.all(
                  isomers.map((s) => {
                    counters.docking_calls++;
                    return port.dock(s, signal, e.exhaustiveness).then(
                      (pose) => pose.score,
                      (err: unknown) => {
                        if (signal?.aborted) throw err;
                        counters.docking_failures++;
                        return Number.NaN;
                      },
                    );
                  }),
                );
                const ok = scores.filter((s) => Number.isFinite(s));
                return ok.length ? Math.min(...ok) : null;
              }),
            ),
          ),
        ),
    };
  },
};
