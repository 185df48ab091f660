/**
 * The API's version: `info.version` of openapi.json and the `API-Version` header on every answer
 * (docs/api-versioning.md). Backward-compatible changes keep it (CHANGELOG.md lists them); a breaking
 * change is a new major, under a new path prefix (`/api/v2`) beside the old one.
 */
export const API_VERSION = '1.0.0';
