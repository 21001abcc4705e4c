import { resolve } from 'node:path';
import { DEFAULT_CONFIG, type ServerConfig } from '../platform/deps.js';
import { parseCredentialsKey } from '../platform/secrets.js';
import type { ServerOptions } from '../server.js';
import { SETTINGS_GROUPS } from './settings.js';

/**
 * The server's options from the environment: PORT (8080), HOST (127.0.0.1), MARKETLENS_DATA_DIR
 * (./data), MARKETLENS_SECRET_KEY and MARKETLENS_SECRET_KEY_PREVIOUS, and the configuration each
 * group of the settings table reads into its slice (`SETTINGS_GROUPS`, config/settings.ts), over
 * `DEFAULT_CONFIG`. Fails with a message naming the variable when a value is malformed.
 */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be an integer 0..65535, got ${env.PORT}`);
  const dataDir = resolve(env.MARKETLENS_DATA_DIR || './data');
  const context = { dataDir };
  const config: ServerConfig = { ...DEFAULT_CONFIG };
  for (const group of SETTINGS_GROUPS) if (group.read) Object.assign(config, group.read(env, context));
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir,
    config,
    ...(env.MARKETLENS_SECRET_KEY ? { credentialsKey: parseCredentialsKey(env.MARKETLENS_SECRET_KEY) } : {}),
    ...(env.MARKETLENS_SECRET_KEY_PREVIOUS
      ? { previousCredentialsKey: previousKeyOf(env.MARKETLENS_SECRET_KEY_PREVIOUS) }
      : {}),
  };
}

/** MARKETLENS_SECRET_KEY_PREVIOUS: a key like MARKETLENS_SECRET_KEY, named as itself in the error. */
function previousKeyOf(base64: string): Buffer {
  try {
    return parseCredentialsKey(base64);
  } catch (err) {
    throw new Error(
      (err instanceof Error ? err.message : String(err)).replace(
        'MARKETLENS_SECRET_KEY',
        'MARKETLENS_SECRET_KEY_PREVIOUS',
      ),
    );
  }
}
