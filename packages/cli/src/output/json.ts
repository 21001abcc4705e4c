import type { Io } from '../io.js';

/** Version of the `--json` shapes; bumped only on a breaking change (README: JSON output). */
export const JSON_SCHEMA_VERSION = 1;

/**
 * Prints one JSON object on stdout: `{"schema": "marketlens.<kind>/<version>", ...payload}`, the
 * version {@link JSON_SCHEMA_VERSION} unless the kind's own shape broke since (then its own).
 * Non-finite numbers become null (JSON has no NaN), so "unknown" is always null.
 */
export function printJson(
  io: Io,
  kind: string,
  payload: Record<string, unknown>,
  version: number = JSON_SCHEMA_VERSION,
): void {
  const body = { schema: `marketlens.${kind}/${version}`, ...payload };
  io.stdout(
    `${JSON.stringify(body, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2)}\n`,
  );
}

/**
 * Version of the `--json` shapes of the data commands since they speak REST's dialect (issue 39):
 * each object is the REST `data` of the command's question, with `schema` first.
 */
export const DATA_SCHEMA_VERSION = 2;

/**
 * Prints the REST answer of a data command: `{"schema": "marketlens.<kind>/<version>", ...data}`,
 * where `data` is exactly what the REST route of the same question answers in its `data`.
 */
export function printData(io: Io, kind: string, data: object, version: number = DATA_SCHEMA_VERSION): void {
  printJson(io, kind, { ...data }, version);
}
