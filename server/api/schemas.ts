/**
 * Building blocks of the route schemas. Every route declares what it reads (body, querystring,
 * params); Fastify validates before the handler runs, so an object where an id belongs, a 10 MB
 * string or a missing field is a 400 with a Swedish message, never a 500 (tests/server/security).
 * Fastify's Ajv coerces query strings to the declared types.
 */

const MAX_ID = 2_147_483_647;

export const id = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;
/** An id that may be 0 or negative in a query (an unknown id answers 404, not 400). */
export const anyId = { type: 'integer', minimum: -MAX_ID, maximum: MAX_ID } as const;
export const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
export const int = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum }) as const;
export const bool = { type: 'boolean' } as const;
/** ISO dates and similar short strings. */
export const date = text(64);

type Properties = Record<string, object>;

/** A JSON object of known fields; others are allowed and ignored (clients send whole rows). */
export const object = (properties: Properties, required: string[] = []) =>
  ({ type: 'object', properties, required, additionalProperties: true }) as const;

/** Route params: every one named, nothing else. */
export const params = (properties: Properties) =>
  ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false }) as const;

/** A querystring of optional fields; unknown ones are ignored. */
export const query = (properties: Properties, required: string[] = []) => object(properties, required);

export const featureParams = params({ featureId: text(100) });
export const appParams = params({ appId: text(100) });
export const idParams = params({ id });
