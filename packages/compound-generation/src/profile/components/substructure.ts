// Substructure components by SMARTS, as REINVENT 4 defines them (reinvent_plugins/components/RDKit/
// comp_matching_substructure.py, comp_group_count.py; comp_custom_alerts.py):
// - GroupCount: the number of unique matches of `smarts` (a count; pair it with a transform, e.g. right_step
//   high = 1 for "present" or left_step low = 0 for "absent", GuacaMol's SMARTS scoring);
// - MatchingSubstructure (a penalty): 1 when any of `smarts` matches (chirality if `use_chirality`), else 0.5,
//   multiplied into the total;
// - CustomAlerts (a filter): 0 when any of `smarts` matches, else 1; a molecule at 0 scores 0.
import type { Mol } from '../../rdkit.js';
import type { RawValue } from '../external/protocol.js';
import type { MoleculeContext } from '../molecule.js';
import type { ParamReader } from '../params.js';
import type { BuildContext, ComponentDef } from './types.js';

function patterns(p: ParamReader, ctx: BuildContext, name: string): Mol[] {
  const out: Mol[] = [];
  for (const s of p.strings(name, { nonEmpty: true })) {
    const q = ctx.smarts(s.value, s.path);
    if (q) out.push(q);
  }
  return out;
}

const anyMatch = (m: MoleculeContext, qs: readonly Mol[], chirality = false) =>
  qs.some((q) => m.matches(q, chirality).length > 0);

export const GROUP_COUNT: ComponentDef = {
  name: 'GroupCount',
  role: 'score',
  reinvent: true,
  params: ['smarts'],
  build(endpoints, ctx) {
    const qs = endpoints.map((p) => {
      const v = p.strings('smarts');
      if (v.length > 1) p.problem('smarts', 'GroupCount counts one SMARTS per endpoint (use one endpoint per pattern)');
      const q = v[0] ? ctx.smarts(v[0].value, v[0].path) : undefined;
      p.finish('GroupCount', ['smarts']);
      return q;
    });
    return { compute: (mols) => qs.map((q) => mols.map((m): RawValue => (q ? m.matches(q).length : Number.NaN))) };
  },
};

// Deliberate likeness: every scoring component is a ComponentDef entry of this shape (name, role, params, build).
export const MATCHING_SUBSTRUCTURE: ComponentDef = {
  name: 'MatchingSubstructure',
  role: 'penalty',
  reinvent: true,
  params: ['smarts', 'use_chirality'],
  build(endpoints, ctx) {
    const ends = endpoints.map((p) => {
      const qs = patterns(p, ctx, 'smarts');
      const chirality = p.boolean('use_chirality', false);
      p.finish('MatchingSubstructure', ['smarts', 'use_chirality']);
      return { qs, chirality };
    });
    return {
      compute: (mols) => ends.map((e) => mols.map((m): RawValue => (anyMatch(m, e.qs, e.chirality) ? 1 : 0.5))),
    };
  },
};

export const CUSTOM_ALERTS: ComponentDef = {
  name: 'CustomAlerts',
  role: 'filter',
  reinvent: true,
  params: ['smarts'],
  build(endpoints, ctx) {
    const ends = endpoints.map((p) => {
      const qs = patterns(p, ctx, 'smarts');
      p.finish('CustomAlerts', ['smarts']);
      return qs;
    });
    return { compute: (mols) => ends.map((qs) => mols.map((m): RawValue => (anyMatch(m, qs) ? 0 : 1))) };
  },
};
