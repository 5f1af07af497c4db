/** `GET /serp-maps` in the API reference (spec §4.3). */
import { ErrorCode } from '../error-codes.js';
import type { ApiEndpoint } from './endpoint-reference.js';
import { serpMapsResponseSchema } from './responses.js';
import { serpMapsParamsSchema } from './serp-maps.js';

export const serpMapsEndpoint: ApiEndpoint = {
  path: '/serp-maps',
  operationId: 'serpMaps',
  summary: 'Places from a maps search, or one place by placeId or cid: address, rating, phone, website, coordinates, opening hours',
  description:
    '30 credits per answered request, whatever the number of places (an empty search, or a lookup with no such place, ' +
    'is 200 with no places and costs 30 too); 0 when the provider fails or blocks us (502). Use it for local businesses and points of ' +
    'interest; /serp-search with type=places gives a search page\'s local pack instead.',
  params: () => serpMapsParamsSchema,
  paramDocs: {
    q: { description: 'What to search for (required in a lookup too, where it is only echoed).', schema: { minLength: 1, maxLength: 2048 } },
    hl: { description: 'Language of the results, ISO 639-1 (en, de, el; a region subtag such as pt-BR is accepted).', schema: { pattern: '^[A-Za-z]{2}(-[A-Za-z0-9]{2,8})?$' } },
    ll: {
      description: 'Location bias `@<lat>,<lng>,<zoom>z`, zoom 1z to 21z (send the @ as %40).',
      schema: { examples: ['@40.7455096,-74.0083012,14z'] },
    },
    placeId: {
      description: 'Look up this exact place: a Google ChIJ… id, or an OpenStreetMap N123 / W456 / R789 (node, way, relation).',
      schema: { maxLength: 512, pattern: '^[A-Za-z0-9_-]+$' },
    },
    cid: { description: "Look up a place by Google's numeric customer id (decimal digits, up to 2^64−1).", schema: { pattern: '^[0-9]{1,20}$' } },
  },
  response: serpMapsResponseSchema,
  errors: [
    { status: 400, codes: [ErrorCode.INVALID_PARAMETER], when: 'a parameter fails validation, e.g. missing q or a malformed ll (nothing is charged)' },
    { status: 403, codes: [ErrorCode.ACCOUNT_SUSPENDED, ErrorCode.SUBSCRIPTION_EXPIRED], when: 'suspended account or ended subscription' },
    { status: 429, codes: [ErrorCode.CONCURRENCY_LIMIT, ErrorCode.CREDITS_EXHAUSTED], when: 'concurrent request limit reached, or fewer than 30 credits left' },
    { status: 500, codes: [ErrorCode.UPSTREAM_BLOCKED, ErrorCode.UPSTREAM_FAILED], when: 'the maps provider failed or kept blocking us (0 credits)' },
  ],
};
