// The dictionary side of entity recognition: names and synonyms from vocabularies (and from entities
// already in the base) mapped to a canonical name and an entity type. Phrases are looked up by their
// normalised form; short upper-case symbols only match text that is written with a capital or a digit, so
// that 'MET' (the gene) is found but 'met' (the verb) is not.
import { normalizeName, type Vocabulary } from '@evident/kb-core';

export interface LexEntry {
  /** Canonical display name (the vocabulary's key, or the entity's stored name). */
  name: string;
  type: string;
  /** Match only text that has an upper-case letter or a digit. */
  needsCase: boolean;
}

export class Lexicon {
  private readonly phrases = new Map<string, LexEntry>();
  /** Every proper word-prefix of a phrase key ('non-small cell' for 'non-small cell lung cancer'): a token-trie's
   * inner nodes as strings, so findMentions extends a phrase only while some entry still starts with it. */
  private readonly prefixes = new Set<string>();
  /** Longest phrase, in words. */
  maxWords = 1;

  get size(): number {
    return this.phrases.size;
  }

  /** Adds one surface form; an existing entry for the same surface is kept (vocabularies before base entities). */
  add(surface: string, name: string, type: string): void {
    const key = normalizeName(surface);
    if (key === '' || this.phrases.has(key)) return;
    const letters = surface.replace(/[^A-Za-z]/g, '');
    const needsCase = surface.length <= 5 && letters !== '' && letters === letters.toUpperCase();
    this.phrases.set(key, { name, type, needsCase });
    const words = key.split(' ');
    for (let k = 1, at = 0; k < words.length; k++) {
      at += words[k - 1]!.length + (k > 1 ? 1 : 0);
      this.prefixes.add(key.slice(0, at));
    }
    if (words.length > this.maxWords) this.maxWords = words.length;
  }

  /** Synonyms of type '*' name genes (and their products): recognised mentions become genes. */
  addVocabulary(vocab: Vocabulary): void {
    for (const [type, table] of Object.entries(vocab.synonyms ?? {})) {
      const t = type === '*' ? 'gene' : type;
      for (const [canonical, syns] of Object.entries(table)) {
        this.add(canonical, canonical, t);
        for (const s of syns) this.add(s, canonical, t);
      }
    }
  }

  lookup(surface: string): LexEntry | undefined {
    return this.lookupKey(normalizeName(surface), surface);
  }

  /** lookup() with the surface's normalised key already made (findMentions builds keys token by token). */
  lookupKey(key: string, surface: string): LexEntry | undefined {
    const e = this.phrases.get(key);
    if (!e) return undefined;
    if (e.needsCase && !/[A-Z0-9]/.test(surface)) return undefined;
    return e;
  }

  /** Whether some phrase key starts with `key` followed by a space (a longer phrase may still match). */
  extends(key: string): boolean {
    return this.prefixes.has(key);
  }
}

// Small closed lists for entity kinds that have no productive spelling pattern.
export const TISSUES = [
  'liver',
  'kidney',
  'brain',
  'heart',
  'lung',
  'pancreas',
  'skeletal muscle',
  'adipose tissue',
  'spleen',
  'colon',
  'small intestine',
  'intestine',
  'skin',
  'retina',
  'placenta',
  'bone marrow',
  'hippocampus',
  'cerebral cortex',
  'prostate',
  'thyroid',
  'stomach',
  'testis',
  'ovary',
  'breast tissue',
  'blood',
  'plasma',
  'lymph node',
];
export const CELL_TYPES = [
  'hepatocytes',
  'neurons',
  'macrophages',
  't cells',
  'b cells',
  'nk cells',
  'natural killer cells',
  'fibroblasts',
  'cardiomyocytes',
  'keratinocytes',
  'adipocytes',
  'astrocytes',
  'microglia',
  'beta cells',
  'pancreatic beta cells',
  'dendritic cells',
  'endothelial cells',
  'epithelial cells',
  'monocytes',
  'neutrophils',
  'platelets',
  'erythrocytes',
  'osteoclasts',
  'osteoblasts',
  'podocytes',
  'oligodendrocytes',
  'regulatory t cells',
  'cd8+ t cells',
  'cd4+ t cells',
];
export const PROCESSES = [
  'apoptosis',
  'autophagy',
  'angiogenesis',
  'cell proliferation',
  'proliferation',
  'inflammation',
  'glycolysis',
  'dna repair',
  'ferroptosis',
  'senescence',
  'cellular senescence',
  'fibrogenesis',
  'gluconeogenesis',
  'lipogenesis',
  'fatty acid oxidation',
  'cell migration',
  'epithelial-mesenchymal transition',
  'necroptosis',
  'pyroptosis',
  'mitophagy',
  'insulin secretion',
  'platelet aggregation',
  'prostaglandin synthesis',
];

/** A lexicon holding the closed lists above plus the given vocabularies. */
export function baseLexicon(vocabs: Vocabulary[]): Lexicon {
  const lex = new Lexicon();
  for (const v of vocabs) lex.addVocabulary(v);
  for (const t of TISSUES) lex.add(t, t, 'tissue');
  for (const c of CELL_TYPES) lex.add(c, c, 'cell_type');
  for (const p of PROCESSES) lex.add(p, p, 'biological_process');
  return lex;
}
