// The target of a cg job at run time: the structure (the request's, a PDB entry, or resolved from the accession),
// read and placed by the engine (analyseTarget), and a Vina docking session on its pocket behind the engine's
// DockingPort. The engine stays pure; this is where files, subprocesses and outside services meet it.
import { EvidentError } from '@evident/contract';
import {
  analyseTarget,
  type DockingPort,
  type GenerationInput,
  type StructureOrigin,
  type TargetSite,
} from '@evident/compound-generation';
import { DockingSession, findDockingTools, smilesDockingPort, type DockingTools } from '@evident/docking';
import type { JobRunContext } from '../job-kind.js';
import { StructureSources } from '../../structures/index.js';
import { withoutTempPaths } from './tool-messages.js';

export interface OpenTarget {
  target: { port: DockingPort; summary: TargetSite['summary'] };
  close(): Promise<void>;
}

const PREPARATION =
  "receptor: the chain's protein atoms, hydrogens and Gasteiger charges by Open Babel at pH 7.4 (rigid); " +
  'ligands: 3D conformer, protonation at pH 7.4 and PDBQT by Open Babel; stereo as generated (each ' +
  'unspecified stereocentre enumerated)';

export async function openTarget(input: GenerationInput, ctx: JobRunContext): Promise<OpenTarget> {
  const request = { uniprot: input.target_uniprot, residues: input.residues, target: input.target };
  const { text, origin } = await structureOf(input, ctx, request);
  let site: TargetSite;
  try {
    site = analyseTarget(text, request, origin);
  } catch (e) {
    // The request's own structure was read at submission; a fetched one can still not fit the request.
    if (e instanceof EvidentError && e.status === 400)
      throw new EvidentError(e.code, `structure ${origin.id} (${origin.source}): ${e.message}`, {
        status: 400,
        ...(e.problems ? { problems: e.problems } : {}),
      });
    throw e;
  }
  const tools = await dockingTools();
  const { seed, docking_exhaustiveness: exhaustiveness } = input.options;
  const session = await DockingSession.open({
    receptor: { pdb: site.receptorPdb },
    box: site.box,
    seed,
    exhaustiveness,
    signal: ctx.signal,
    tools,
  });
  const docking = smilesDockingPort(session, site.contacts);
  const port: DockingPort = {
    dock: (smiles, signal, exhaustiveness) => docking.dock(smiles, signal, exhaustiveness),
    describe: () => ({
      engine: 'AutoDock Vina',
      version: tools.vina.version,
      exhaustiveness,
      seed,
      preparation: PREPARATION,
    }),
  };
  const summary = { ...site.summary, warnings: [...receptorWarnings(session), ...site.summary.warnings] };
  return { target: { port, summary }, close: () => session.close() };
}

async function structureOf(
  input: GenerationInput,
  ctx: JobRunContext,
  request: Parameters<typeof analyseTarget>[1],
): Promise<{ text: string; origin: StructureOrigin }> {
  if (input.target.structure !== null)
    return { text: input.target.structure, origin: { id: 'request', source: 'request' } };
  const options = ctx.settings?.structures;
  if (!options) throw new Error('the service gave this run no structure sources (settings.structures)');
  const sources = new StructureSources(options);
  // An experimental entry counts only when the engine can place the request on it (chain, residues, pocket).
  const covers = (text: string, id: string) => {
    try {
      analyseTarget(text, request, { id, source: 'pdb' });
      return true;
    } catch (e) {
      if (e instanceof EvidentError && e.status === 400) return false;
      throw e;
    }
  };
  const found = await sources.resolveStructure(
    {
      uniprot: input.target_uniprot,
      residues: input.residues,
      ...(input.target.pdb_id ? { pdb_id: input.target.pdb_id } : {}),
    },
    { covers, signal: ctx.signal },
  );
  return { text: found.text, origin: { id: found.id, source: found.source } };
}

/** Missing tools are the operator's problem: 503 docking_unavailable, so the job says so by name. */
async function dockingTools(): Promise<DockingTools> {
  try {
    return await findDockingTools();
  } catch (e) {
    if (e instanceof EvidentError && e.code === 'docking_unavailable')
      throw new EvidentError('docking_unavailable', e.message, { status: 503 });
    throw e;
  }
}

function receptorWarnings(session: DockingSession): string[] {
  // Open Babel names its scratch file (a temp path on this machine): the reader gets the file's name only.
  return session.receptor.warnings.map((w) => `receptor preparation: ${withoutTempPaths(w)}`);
}
