/**
 * The convention of settings: each owner (a feature, the platform, the process) declares its rows
 * of the one settings table in its `config.ts` (key in a JSON config file, environment variable,
 * type, default, what it does) and how its rows are read into its slice of the server's
 * configuration. config/settings.ts assembles the groups into `SETTINGS`, the table the loader
 * reads the config file with and the README's Settings section is generated from.
 */
import type { ServerConfig } from './deps.js';

/** How a setting's value is written in a config file. */
export type SettingType = 'string' | 'integer' | 'number' | 'boolean' | 'list' | 'sources';

/** One setting. */
export interface Setting {
  /** Key in the JSON config file. */
  key: string;
  /** Environment variable; it overrides the file. */
  env: string;
  type: SettingType;
  /** The default, as a person reads it. */
  default: string;
  description: string;
}

/** A row of the settings table, written in one line. */
export function setting(key: string, env: string, type: SettingType, def: string, description: string): Setting {
  return { key, env, type, default: def, description };
}

/** What a group's reader may know besides the environment. */
export interface SettingsContext {
  /** The data folder, resolved (`MARKETLENS_DATA_DIR`). */
  dataDir: string;
}

/** One owner's rows of the settings table and how they are read. */
export interface SettingsGroup {
  /** Who declares the rows: a feature folder (`pilot/`), `platform/`, or `config/` for the process's own. */
  owner: string;
  rows: readonly Setting[];
  /**
   * Reads the rows' environment variables (the config file's values are already merged in) into
   * the owner's slice of the server's configuration; a malformed value throws an error naming its
   * variable. Absent: the rows are read by the process itself (config/load.ts, config/server-env.ts).
   */
  read?: (env: NodeJS.ProcessEnv, context: SettingsContext) => Partial<ServerConfig>;
}
