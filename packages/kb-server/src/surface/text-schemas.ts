// The text-ingestion call's schemas (POST /claims/text, ingest_text): its body, which is the library's
// IngestTextOptions by name (checked at compile time below), and its answer.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  EXTRACTION_MODES,
  PROVIDER_NAMES,
  type ExtractionMode,
  type IngestTextOptions,
  type ProviderName,
  type ProviderOptions,
} from '@evident/kb';
import { Warning } from './schemas.js';

const open = { additionalProperties: true } as const;

/** The library's extraction modes (EXTRACTION_MODES), as a JSON Schema enum: a new mode reaches both surfaces. */
export const ExtractionModeSchema = Type.Unsafe<ExtractionMode>({
  type: 'string',
  enum: [...EXTRACTION_MODES],
  description: `How claims are extracted: ${EXTRACTION_MODES.map((m) => `"${m}"`).join(', ')}. "heuristic" (the default) runs offline; "llm" has a language model extract them; "smart" runs the heuristic, then the model on sentences it found nothing in. "llm" and "smart" need "provider", whose API key the server's environment holds`,
});

/**
 * ProviderOptions as the wire takes them: every field of the library's type but `api_key` and `base_url`. Keys
 * and the provider's address come from the server's environment (OPENAI_API_KEY, OPENAI_BASE_URL, ...): a
 * caller who could name the address could send the server's key anywhere. The mapped type makes a field added
 * to the library's ProviderOptions a compile error here until the wire decides on it.
 */
type WireProviderField = Exclude<keyof ProviderOptions, 'api_key' | 'base_url'>;
const positive = (description: string) => Type.Optional(Type.Integer({ minimum: 1, description }));
const providerFields = {
  provider: Type.Unsafe<ProviderName>({ type: 'string', enum: [...PROVIDER_NAMES] }),
  model: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: "default: the provider's default model" }),
  ),
  timeout_ms: positive('per attempt; default 60000'),
  max_retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, description: 'default 3' })),
  backoff_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'first backoff delay; default 1000' })),
  max_output_tokens: positive('output tokens per call; default 2048'),
  max_input_chars: positive('prompt characters per call; default 24000'),
  max_total_tokens: positive('tokens one ingest may spend in all; default 200000'),
} satisfies { [K in WireProviderField]-?: TSchema };
export const ProviderSpec = Type.Union(
  [
    Type.String({
      minLength: 1,
      maxLength: 300,
      description: `A provider name (${PROVIDER_NAMES.join(', ')}) or "name:model", e.g. "openai:gpt-4o-mini"`,
    }),
    Type.Object(providerFields, { additionalProperties: false }),
  ],
  {
    description:
      'The language model for extraction "llm" / "smart": a name, "name:model", or the library\'s provider options (without api_key and base_url: those come from the server\'s environment)',
  },
);

export const TextIngestBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: 1_000_000,
      description: 'Free text or a chat transcript to extract claims from',
    }),
    source_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          'Source id recorded on every extracted claim (retract it to undo the ingest); default text:<sha256 prefix of the text>',
      }),
    ),
    source_type: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Source type recorded on every claim; default "text"' }),
    ),
    extraction: Type.Optional(ExtractionModeSchema),
    provider: Type.Optional(ProviderSpec),
  },
  { additionalProperties: false },
);
export type TextIngestBody = Static<typeof TextIngestBody>;
// The wire body without `text` is a valid IngestTextOptions of the library, and has no field the library lacks:
// a compile error on either line means the two have drifted apart.
const _wireOptionsFitTheLibrary = (b: Omit<TextIngestBody, 'text'>): IngestTextOptions => b;
const _noWireOnlyOption: [Exclude<keyof Omit<TextIngestBody, 'text'>, keyof IngestTextOptions>] extends [never]
  ? true
  : false = true;
void _wireOptionsFitTheLibrary;
void _noWireOnlyOption;

/** What ingestText answers (IngestResult), warnings' fields named as on the wire. */
export const IngestTextResult = Type.Object(
  {
    claim_ids: Type.Array(Type.String()),
    ingested: Type.Integer(),
    duplicates: Type.Integer(),
    skipped: Type.Array(Type.Object({ reason: Type.String() }, open), {
      description: 'Statements not stored, each with its reason (negated, speculative, type_constraint, ...)',
    }),
    flagged: Type.Array(Type.Object({ claim_id: Type.String(), reasons: Type.Array(Type.String()) }, open), {
      description: 'Stored claims worth a look (hedged, low_confidence, contradiction)',
    }),
    source_ids: Type.Array(Type.String()),
    warnings: Type.Array(Type.Object({ ...Warning.properties, claim_id: Type.String() }, open)),
  },
  open,
);
