/**
 * TEST SUPPORT ONLY: renders a tool of the catalog over one answer of its operation, for the tests
 * of what a tool's text says about figures the service's simulated venue cannot produce on demand (a
 * call with an edge, a calibration bucket, a backtest). The tool's behaviour over the real use cases
 * is tested in `@marketlens/server` (`src/mcp/mcp-tools.test.ts`).
 */

import { OPERATIONS, type OperationId, type OperationInput, type OperationOutput } from '@marketlens/contract';
import { expect } from 'vitest';
import type { AssetRef, OperationRunner } from '../backend.js';
import { CATALOG } from '../catalog.js';

/** A one-pixel SVG: icons are data URIs on the wire, never remote URLs. */
export const TEST_ICON = 'data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E';

/** Bitcoin as an asset reference; prices in the fixtures are round numbers, not market data. */
export const TEST_BTC: AssetRef = {
  id: 'bitcoin',
  symbol: 'BTC',
  name: 'Bitcoin',
  icon: TEST_ICON,
  asset_class: 'coins',
};

/**
 * Renders tool `name` for the arguments `args` (parsed by the tool's input schema, as the server
 * does) over `answer`, the operation's answer (parsed by the operation's output schema, so it is a
 * valid wire value). Checks that the tool ran its operation once and that its structured content
 * is valid for its output schema; answers the text, the structured content and the operation's
 * input the tool asked for.
 */
export async function render<K extends OperationId>(
  name: string,
  operation: K,
  answer: OperationOutput<K>,
  args: Record<string, unknown> = {},
): Promise<{ text: string; data: Record<string, unknown>; request: OperationInput<K> }> {
  const tool = CATALOG.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  expect(tool.operation).toBe(operation);
  const parsed = OPERATIONS[operation].output.parse(answer) as OperationOutput<K>;
  const requests: unknown[] = [];
  const run = (async (id: OperationId, input: unknown) => {
    expect(id).toBe(operation);
    requests.push(input);
    return parsed;
  }) as OperationRunner;
  const out = await tool.run(run, tool.input.parse(args));
  expect(requests).toHaveLength(1);
  const checked = tool.output.safeParse(out.data);
  expect(checked.success, `${name}: ${checked.error?.message}`).toBe(true);
  return { text: out.text, data: out.data, request: requests[0] as OperationInput<K> };
}
