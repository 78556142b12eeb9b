// KbDB's six extraction calls, as a table: each reads its seed call form (callForm) and hands the base and the
// options to the extraction port (extraction-port.ts), or throws KbExtractionUnavailableError naming the call on
// a base opened without one. The public signatures, overloads and all, are declared once here (KbDB takes them on
// by declaration merging, kb.ts); the call forms once in EXTRACTION_FORMS.
import { callForm } from '../call-forms.js';
import { KbExtractionUnavailableError } from '../errors.js';
import type { ClaimInput } from '../types.js';
import type * as extract from './extraction-port.js';
import { OPTION_KEYS } from './extraction-port.js';

export interface ExtractionCalls {
  /** Extracts claims from free text; one call is one atomic batch. Seed form: `ingestText(text, source_id)`. */
  ingestText(
    text: string,
    source_id?: string | null,
    options?: extract.IngestTextOptions,
  ): Promise<extract.IngestResult>;
  ingestText(text: string, options?: extract.IngestTextOptions): Promise<extract.IngestResult>;
  /**
   * Claims from hosted-chat messages (OpenAI- or Anthropic-style); provenance points at each message. Seed
   * form: `ingestChat(messages, conversation_id, extraction)`.
   */
  ingestChat(
    messages: unknown[],
    conversation_id?: string | null,
    extraction?: extract.ExtractionMode | null,
    options?: extract.IngestChatOptions,
  ): Promise<extract.IngestResult>;
  ingestChat(messages: unknown[], options?: extract.IngestChatOptions): Promise<extract.IngestResult>;
  /** Claims from a ChatGPT or Claude export ZIP, a JSON conversation or a text transcript; one file, one batch. */
  ingestChatFile(
    path: string,
    platform?: extract.ChatPlatform | null,
    options?: extract.IngestChatFileOptions,
  ): Promise<extract.IngestResult>;
  ingestChatFile(path: string, options?: extract.IngestChatFileOptions): Promise<extract.IngestResult>;
  /** Claims from a Slack workspace export ZIP; one archive, one batch. Seed form: `(path, channels, extraction)`. */
  ingestTeamChat(
    path: string,
    channels?: string[] | null,
    extraction?: extract.ExtractionMode | null,
    options?: extract.IngestTeamChatOptions,
  ): Promise<extract.IngestResult>;
  ingestTeamChat(path: string, options?: extract.IngestTeamChatOptions): Promise<extract.IngestResult>;
  /** Reviews candidate claims with the configured reviewer: `{ stored, skipped, flagged }` with reasons. */
  curate(claims: ClaimInput[]): Promise<extract.CurateResult>;
  /** 'heuristic', a provider name or 'provider:model'; a missing API key is an error here, not mid-ingest. */
  configureCurator(spec: extract.CuratorSpec): Promise<extract.CuratorConfigured>;
}

type Form = { names: readonly string[]; types: readonly ('string' | 'number' | 'array' | 'any')[] };

/** Each call's optional positional arguments after the first (the seed's order), or none for a plain call. */
const EXTRACTION_FORMS: { [K in keyof ExtractionCalls]: Form | null } = {
  ingestText: { names: ['source_id'], types: ['string'] },
  ingestChat: { names: ['conversation_id', 'extraction'], types: ['string', 'string'] },
  ingestChatFile: { names: ['platform'], types: ['string'] },
  ingestTeamChat: { names: ['channels', 'extraction'], types: ['array', 'string'] },
  curate: null,
  configureCurator: null,
};

/** The calls, as methods of a base whose port `portOf` gives (undefined: opened without extraction). */
export function extractionMethods<Base extends object>(
  portOf: (base: Base) => extract.ExtractionPort | undefined,
): Record<keyof ExtractionCalls, (this: Base, first: unknown, ...rest: unknown[]) => Promise<unknown>> {
  const methods = {} as Record<
    keyof ExtractionCalls,
    (this: Base, first: unknown, ...rest: unknown[]) => Promise<unknown>
  >;
  for (const [name, form] of Object.entries(EXTRACTION_FORMS) as [keyof ExtractionCalls, Form | null][]) {
    methods[name] = async function (this: Base, first: unknown, ...rest: unknown[]) {
      // The arguments are checked before the port is looked for, as a call with a typo fails the same anywhere.
      const keys = form && OPTION_KEYS[name as keyof typeof OPTION_KEYS];
      const options = form && callForm<object>(rest, form.names, form.types, keys!);
      const port = portOf(this);
      if (!port) throw new KbExtractionUnavailableError(name);
      const call = port[name] as (base: Base, first: unknown, options?: object) => Promise<unknown>;
      return options ? call.call(port, this, first, options) : call.call(port, this, first);
    };
  }
  return methods;
}
