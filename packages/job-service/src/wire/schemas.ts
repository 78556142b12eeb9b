// Shared schemas of the /v1 API, for validation and the OpenAPI document.
import { Type, type TSchema } from '@sinclair/typebox';
import { JOB_STATUSES, type JobStatus } from '../store/types.js';

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
      request_id: Type.Optional(Type.String()),
    }),
  },
  { description: 'Every error has this shape' },
);

const ESTIMATED_SECONDS =
  '[low, high] whole seconds (low at least 1, high above it); estimated_time is the same range as text: the same ' +
  'numbers in seconds, else the tightest whole minutes or hours that contain them';

/**
 * A string out of a closed list, as `enum` rather than a union of constants: response serializers
 * (fast-json-stringify) compile an Ajv validator for a union the first time a document goes through it, on the event
 * loop (0.5-2 s on a loaded machine: every small request waited while the first job's status was answered).
 */
const StringEnum = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });

export const StatusDoc = Type.Object({
  job_id: Type.String(),
  kind: Type.String(),
  status: StringEnum<JobStatus>(JOB_STATUSES),
  created_at: Type.String({ description: 'ISO 8601 UTC' }),
  started_at: Type.Optional(Type.String()),
  completed_at: Type.Optional(Type.String()),
  results_url: Type.Optional(
    Type.String({
      description:
        'Needs the API key; for a link a browser opens, ask GET /v1/jobs/{job_id}?results_link=true or ' +
        'POST /v1/results/{job_id}/links',
    }),
  ),
  results_link: Type.Optional(
    Type.Object(
      { url: Type.String(), expires_at: Type.String() },
      {
        description: 'With ?results_link=true, for a completed job: a signed link that opens the results in a browser',
      },
    ),
  ),
  progress: Type.Optional(Type.Object({ stage: Type.String(), percent: Type.Number() })),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  estimated_time: Type.String({ description: "'<low>-<high> <unit>'; for a queued job it includes the wait" }),
  estimated_seconds: Type.Tuple([Type.Number(), Type.Number()], { description: ESTIMATED_SECONDS }),
  queue_position: Type.Optional(
    Type.Integer({ minimum: 1, description: 'While queued: 1 for the next job a worker takes (every key counts)' }),
  ),
  attempts: Type.Integer(),
});

export const Accepted = Type.Object({
  job_id: Type.String(),
  status: Type.Literal('processing'),
  estimated_time: Type.String({
    description: "'<low>-<high> <unit>', e.g. '2-4 hours', '4-32 seconds'; includes the queue",
  }),
  estimated_seconds: Type.Tuple([Type.Number(), Type.Number()], { description: ESTIMATED_SECONDS }),
  queue_position: Type.Optional(Type.Integer({ minimum: 1, description: 'When the job waits for a worker' })),
  webhook_url: Type.Optional(
    Type.String({ description: 'Discovery jobs, as the seed shows: absolute URL of GET /v1/jobs/{job_id}' }),
  ),
});

export const CallbackUrl = Type.String({
  maxLength: 2048,
  description: 'Optional: POSTed the job status document when the job ends, signed in X-Evident-Signature',
});

export const JobIdParams = Type.Object({ job_id: Type.String({ maxLength: 200 }) }, { additionalProperties: false });

export const ListJobsQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(JOB_STATUSES.map((s) => Type.Literal(s)))),
    kind: Type.Optional(Type.String({ maxLength: 40 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);

export const ResultsQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union(
        [
          Type.Literal('json'),
          Type.Literal('csv'),
          Type.Literal('html'),
          Type.Literal('calls.csv'),
          Type.Literal('enrichment.csv'),
        ],
        {
          description:
            'json (default), csv (the main table), html (the page, where the kind has one), calls.csv (the oracle ' +
            'call log of a compound-design job run with a scoring profile), enrichment.csv (the gene-set enrichment ' +
            'of a discovery job run with options.enrichment)',
        },
      ),
    ),
    token: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          "A signed results link's token (POST /v1/results/{job_id}/links): opens this job's results without " +
          'an Authorization header, until it expires or is revoked',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Seconds a signed results link lasts: the default, and the bounds a caller may ask for. */
export const LINK_TTL = { default: 3600, min: 60, max: 24 * 3600 } as const;

export const ResultsLinkBody = Type.Object(
  {
    expires_in: Type.Optional(
      Type.Integer({
        minimum: LINK_TTL.min,
        maximum: LINK_TTL.max,
        description: `Seconds the link lasts (default ${LINK_TTL.default})`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const ResultsLinkDoc = Type.Object({
  url: Type.String({
    description: 'Opens the results in a browser without the API key (the HTML page where the kind has one)',
  }),
  token: Type.String({ description: "The link's token: the same results as ?format=json|csv|html&token=…" }),
  expires_at: Type.String({ description: 'ISO 8601 UTC' }),
});

export const StatusQuery = Type.Object({
  results_link: Type.Optional(
    Type.Boolean({
      description: `A completed job's status then carries results_link, a signed link valid ${LINK_TTL.default / 60} minutes`,
    }),
  ),
});

/** The kind's body schema plus the service-level `callback_url`. */
export function submitBodySchema(kindSchema: TSchema): TSchema {
  const s = kindSchema as TSchema & { type?: string; properties?: Record<string, TSchema> };
  if (s.type !== 'object' || !s.properties) return kindSchema;
  if ('callback_url' in s.properties) return kindSchema;
  return { ...s, properties: { ...s.properties, callback_url: Type.Optional(CallbackUrl) } } as TSchema;
}

export const errorResponses = (...codes: number[]): Record<number, TSchema> =>
  Object.fromEntries(codes.map((c) => [c, ErrorBody]));
