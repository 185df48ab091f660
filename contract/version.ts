/**
 * The API's version: `info.version` of openapi.json and the `API-Version` header on every answer. Semantic
 * versioning of the contract (docs/api-versioning.md): the major is in the path (`/api/v1`); a minor adds
 * (operations, optional fields, response fields, enum values, error codes); a patch changes descriptions
 * or fixes the contract to what the server already did.
 */
export const API_VERSION = '1.0.0';
