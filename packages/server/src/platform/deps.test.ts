import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../config/server-env.js';

describe('optionsFromEnv', () => {
  it('runs on the embedded default with no configuration', () => {
    const o = optionsFromEnv({});
    expect([o.port, o.host, o.config.publicUrl, o.credentialsKey]).toEqual([8080, '127.0.0.1', undefined, undefined]);
    expect(o.dataDir.endsWith('data')).toBe(true);
  });

  it('reads the public URL as an origin and refuses what is not one', () => {
    expect(optionsFromEnv({ MARKETLENS_PUBLIC_URL: 'https://api.example.com/' }).config.publicUrl).toBe(
      'https://api.example.com',
    );
    expect(() => optionsFromEnv({ MARKETLENS_PUBLIC_URL: 'api.example.com' })).toThrow(/MARKETLENS_PUBLIC_URL/);
    expect(() => optionsFromEnv({ MARKETLENS_PUBLIC_URL: 'ftp://x.example' })).toThrow(/http/);
  });

  it('reads the /mcp origin allow-list as origins and refuses what is not one', () => {
    expect(optionsFromEnv({}).config.mcpAllowedOrigins).toBeUndefined();
    expect(
      optionsFromEnv({ MARKETLENS_MCP_ALLOWED_ORIGINS: 'https://app.example/, http://localhost:5173' }).config
        .mcpAllowedOrigins,
    ).toEqual(['https://app.example', 'http://localhost:5173']);
    expect(() => optionsFromEnv({ MARKETLENS_MCP_ALLOWED_ORIGINS: 'app.example' })).toThrow(
      /MARKETLENS_MCP_ALLOWED_ORIGINS/,
    );
  });

  it('names the variable when a setting is out of range', () => {
    expect(() => optionsFromEnv({ PORT: '99999' })).toThrow(/PORT/);
    expect(() => optionsFromEnv({ MARKETLENS_SYNC_INTERVAL_MS: '5' })).toThrow(/MARKETLENS_SYNC_INTERVAL_MS/);
    expect(() => optionsFromEnv({ MARKETLENS_VAPID_PUBLIC_KEY: 'x' })).toThrow(/go together/);
    expect(() => optionsFromEnv({ MARKETLENS_PILOT_TIMEFRAME: 'y1' })).toThrow(/MARKETLENS_PILOT_TIMEFRAME/);
  });
});
