// An MCP client of marketlens: starts `marketlens mcp` as a child process over stdio (as Claude
// Desktop or an IDE does), lists the tools, and calls an analysis tool and get_positions.
//
// By default the child serves the embedded default: a throwaway data folder and the simulated
// venue, no network needed. Against your own server instead:
//   MARKETLENS_SERVER=http://127.0.0.1:8080 MARKETLENS_SESSION_TOKEN=... node mcp-client.mjs
// Installed from npm, the command is `marketlens mcp`; here it is this repository's build.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const cli = fileURLToPath(new URL('../packages/cli/dist/main.js', import.meta.url));
const remote = process.env.MARKETLENS_SERVER;
const dataDir = remote ? undefined : mkdtempSync(join(tmpdir(), 'marketlens-mcp-example-'));

// The child gets a minimal environment (the SDK's default: PATH, HOME, ...) plus what it needs.
const transport = new StdioClientTransport({
  command: process.execPath,
  args: remote ? [cli, 'mcp', '--server', remote] : [cli, 'mcp'],
  env: {
    ...getDefaultEnvironment(),
    ...(remote
      ? { MARKETLENS_SESSION_TOKEN: process.env.MARKETLENS_SESSION_TOKEN ?? '' }
      : { MARKETLENS_DATA_DIR: dataDir }),
  },
  stderr: 'ignore', // the server's logs; 'inherit' shows them
});
const client = new Client({ name: 'marketlens-example', version: '1.0.0' });

/** Calls a tool; prints its text, or its error code and message (the REST error codes). */
async function show(name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
  console.log(`\n> ${name} ${JSON.stringify(args)}${result.isError ? '  (tool error)' : ''}`);
  console.log(text);
  return result;
}

try {
  await client.connect(transport);
  const { name, version } = client.getServerVersion();
  const { tools } = await client.listTools();
  console.log(`${name} ${version}: ${tools.length} tools`);
  console.log(tools.map((t) => `  ${t.name.padEnd(32)} ${t.title ?? ''}`).join('\n'));

  await show('get_asset_analysis', { asset_id: 'bitcoin', timeframe: '1d' });
  const positions = await show('get_positions');
  const { totals } = positions.structuredContent;
  console.log(`(structured: ${totals.open_positions_count} open, ${totals.unpriced_positions_count} unpriced)`);

  // A free account asking for a paid timeframe: the tool error carries code 1004, as REST's 402 does.
  const refused = await show('get_asset_signal', { asset_id: 'ethereum', timeframe: '1h' });
  if (refused.isError) console.log(`code: ${refused.structuredContent.code}`);
} finally {
  await client.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
