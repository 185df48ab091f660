/**
 * `@travel/contract`: the one type system of the API, shared by the server, the SDK and the CLI.
 * - `paths`, `operations`, `components`: openapi-typescript's types of openapi.json (`generated/schema.ts`);
 * - `ErrorCode`, `errorCodes`, `isErrorCode`: every code declared in an `x-error-codes` (`generated/error-codes.ts`);
 * - the enums (`enums.ts`) and the currency table (`currencies.ts`).
 * Both generated files are written by `pnpm openapi`; `stale.test.ts` fails when they are out of date.
 */
export * from './currencies.ts';
export * from './enums.ts';
export { type ErrorCode, errorCodes, isErrorCode } from './generated/error-codes.ts';
export type { components, operations, paths } from './generated/schema.ts';
export { API_VERSION } from './version.ts';
