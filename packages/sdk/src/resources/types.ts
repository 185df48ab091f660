/**
 * Type helpers that read request and response shapes out of the generated `paths`, so resources stay typed
 * by the contract without naming generated schema types one by one.
 */
import type { paths } from '@travel/contract';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
type Op<P extends keyof paths, M extends Method> = M extends keyof paths[P] ? paths[P][M] : never;

/** The JSON request body of an operation. */
export type BodyOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The query parameters of an operation. */
export type QueryOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { parameters: { query?: infer Q } }
    ? Q extends undefined
      ? never
      : NonNullable<Q>
    : never;

/** The JSON body of an operation's success (200, 201 or 202) response. */
export type ResponseOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { responses: infer R }
    ? R extends { 200: { content: { 'application/json': infer B } } }
      ? B
      : R extends { 201: { content: { 'application/json': infer B } } }
        ? B
        : R extends { 202: { content: { 'application/json': infer B } } }
          ? B
          : unknown
    : never;

/** The element type of a `{ items: [...] }` page. */
export type ItemOf<TPage> = TPage extends { items: (infer I)[] } ? I : unknown;
