/**
 * @marketlens/contract: the marketlens wire contract, written once. Zod schemas of every request
 * and response (REST routes take their OpenAPI from them, MCP tools their input and output schemas,
 * the CLI its `--json`), the enums with their accepted spellings, the error table, and one serializer
 * per resource. Depends on zod only.
 */
export * from './accounts/connections.js';
export * from './accounts/me.js';
export * from './accounts/requests.js';
export * from './accounts/responses.js';
export * from './accounts/serialize.js';
export * from './alerts/devices.js';
export * from './alerts/limits.js';
export * from './alerts/requests.js';
export * from './alerts/responses.js';
export * from './alerts/serialize.js';
export * from './alerts/webhooks.js';
export * from './auth/admin.js';
export * from './auth/session.js';
export * from './envelope.js';
export * from './errors.js';
export * from './keys/api-keys.js';
export * from './live/stream.js';
export * from './market/config.js';
export * from './market/insights.js';
export * from './market/lists.js';
export * from './market/queries.js';
export * from './market/requests.js';
export * from './market/responses.js';
export * from './market/track-record.js';
export * from './market/words.js';
export * from './operations.js';
export * from './pilot/requests.js';
export * from './pilot/responses.js';
export * from './pilot/serialize.js';
export * from './promotions/admin.js';
export * from './promotions/requests.js';
export * from './promotions/responses.js';
export * from './promotions/serialize.js';
export * from './tiers.js';
export * from './time.js';
export * from './timeframes.js';
export * from './version.js';
