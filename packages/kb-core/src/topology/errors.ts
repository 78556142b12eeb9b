import { KbError } from '../errors.js';

/** A topology or embedding read before anything was computed: the message says which call to make first. */
export class KbTopologyNotComputedError extends KbError {
  constructor(what: 'topology' | 'structural' | 'weighted') {
    const call =
      what === 'topology'
        ? 'computeTopology'
        : what === 'structural'
          ? 'generateStructuralEmbeddings'
          : 'generateWeightedStructuralEmbeddings';
    super('not_computed', `no ${what === 'topology' ? 'topology' : `${what} embeddings`} yet: call ${call} first`, {
      status: 409,
    });
  }
}
