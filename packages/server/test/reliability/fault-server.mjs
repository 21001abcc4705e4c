// The server process faults.test.ts kills: the built server (dist) on the data dir
// FAULT_DATA_DIR, on a free port; reports its URL over IPC. Nothing else: what survives a
// SIGKILL is exactly what the real server committed.
import { DEFAULT_CONFIG, startServer } from '../../dist/index.js';

const dataDir = process.env.FAULT_DATA_DIR;
if (!dataDir) throw new Error('FAULT_DATA_DIR is required');
const config = {
  ...DEFAULT_CONFIG,
  rateLimit: { limit: 1e12, windowMs: 60_000 },
  news: { ...DEFAULT_CONFIG.news, feeds: [] },
};
const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, config });
process.send?.({ url: server.url });
