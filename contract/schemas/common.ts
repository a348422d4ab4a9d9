import { Type, type TProperties, type TSchema } from '@sinclair/typebox';

/**
 * Building blocks of the request schemas (TypeBox: JSON Schema and its TypeScript type in one). The
 * server declares them on its routes, so a body, query or path parameter that does not fit is a
 * 400 before any handler runs, and the handler's types come from the same schema.
 */

const MAX_ID = 2_147_483_647;

/** An id in a path: a positive 32-bit integer. */
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });
/** An id that may be 0 or negative in a body or query (an unknown id answers 404, not 400). */
export const AnyId = Type.Integer({ minimum: -MAX_ID, maximum: MAX_ID });
export const Text = (maxLength: number) => Type.String({ maxLength });
export const Int = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });
/** ISO dates and similar short strings. */
export const DateText = Text(64);
/** One of a few strings. */
export const StringEnum = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: values });
/** A file part of a multipart body (a Buffer; its content is checked by the handler). */
export const FilePart = Type.Unknown();

/** A JSON object of known fields; others are allowed and ignored (clients send whole rows). */
export const Body = <T extends TProperties>(properties: T) =>
  Type.Object(properties, { additionalProperties: true });
/** A querystring of known fields; unknown ones are ignored. */
export const Query = Body;
/** Route params: every one named, nothing else. */
export const Params = <T extends TProperties>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

/** Property id to value (the contact's or a conversation's properties): at most 20 short values. */
export const PropertyMap = (maxLength: number) =>
  Type.Unsafe<Record<string, string | number | boolean>>({
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'boolean'], maxLength },
    maxProperties: 20,
  });

export const IdParams = Params({ id: Id });

export type { TSchema };
