/**
 * Rotating the credentials key: every stored secret (exchange connection credentials, webhook
 * signing secrets) re-encrypted under the new key, while the instances accept both keys
 * (`MARKETLENS_SECRET_KEY` = new, `MARKETLENS_SECRET_KEY_PREVIOUS` = old).
 */

import { CredentialsDecryptError, decryptCredentials, encryptCredentials } from '../platform/secrets.js';
import type { SqlStorage } from '../storage/sql/storage.js';
import type { Storage } from '../storage/types.js';

/** What one rotation did, table by table. */
export interface KeyRotationReport {
  /** Re-encrypted from the old key to the new one. */
  rotated: number;
  /** Already under the new key (a second run, or written since the instances have it). */
  current: number;
  /** Opened by neither key: their ids, left as they are (the connection or webhook must be set up again). */
  unreadable: string[];
}

/** Where encrypted secrets are stored: the table, its id column and its blob column. */
const STORED = [
  { table: 'user_connections', column: 'credentials' },
  { table: 'alert_webhooks', column: 'secret' },
] as const;

/**
 * Re-encrypts every stored secret that opens with `previous` under `next`, one row at a time, each
 * update conditional on the row still holding the blob that was read (a row the server rewrote
 * meanwhile is left to it). Idempotent: a row that opens with `next` is counted `current` and not
 * written. Never logs or returns a secret.
 */
export async function rotateCredentialsKey(
  storage: Storage,
  previous: Uint8Array,
  next: Uint8Array,
): Promise<Record<(typeof STORED)[number]['table'], KeyRotationReport>> {
  if (!isSqlStorage(storage)) throw new Error('key rotation needs the SQL storage (SQLite or PostgreSQL)');
  const db = storage.sql.kysely;
  const report = {} as Record<(typeof STORED)[number]['table'], KeyRotationReport>;
  for (const { table, column } of STORED) {
    const out: KeyRotationReport = { rotated: 0, current: 0, unreadable: [] };
    // Both tables have an id and the blob column; kysely's types follow the literal table name.
    const rows = (await db.selectFrom(table).select(['id', column]).orderBy('id').execute()) as unknown as {
      id: string;
      [key: string]: string;
    }[];
    for (const row of rows) {
      const blob = row[column];
      if (opens(next, row.id, blob)) {
        out.current++;
        continue;
      }
      let plain: ReturnType<typeof decryptCredentials>;
      try {
        plain = decryptCredentials(previous, row.id, blob);
      } catch (err) {
        if (!(err instanceof CredentialsDecryptError)) throw err;
        out.unreadable.push(row.id);
        continue;
      }
      const sealed = encryptCredentials(next, row.id, plain);
      await db
        .updateTable(table)
        .set({ [column]: sealed })
        .where('id', '=', row.id)
        .where(column, '=', blob)
        .execute();
      out.rotated++;
    }
    report[table] = out;
  }
  return report;
}

function opens(key: Uint8Array, id: string, blob: string): boolean {
  try {
    decryptCredentials(key, id, blob);
    return true;
  } catch (err) {
    if (err instanceof CredentialsDecryptError) return false;
    throw err;
  }
}

function isSqlStorage(storage: Storage): storage is SqlStorage {
  return 'sql' in storage && typeof (storage as Partial<SqlStorage>).sql?.kysely === 'object';
}
