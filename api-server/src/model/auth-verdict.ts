/**
 * What the bearer-key check answers for one Authorization value (HTTP header or gRPC metadata):
 * `ok`, `unauthorized` (missing or wrong key), or `no_key` (none configured in production, so
 * every call is refused as unavailable). Every ingest transport answers it in its own protocol.
 */
export type AuthVerdict = 'ok' | 'unauthorized' | 'no_key';
