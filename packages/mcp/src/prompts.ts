/**
 * MCP prompts for the tasks users ask for most: a morning brief of the watchlist, a review of the
 * open positions against the published zones, and the explanation of an asset's signal. Each
 * prompt's arguments are typed (parsed with the contract's schemas: a timeframe in either
 * spelling, an asset id or ticker) and its messages embed the data they are about (the resource's
 * JSON) or link the resources to read.
 */
import {
  AssetAnalysisInput,
  DEFAULT_TIMEFRAME,
  type OperationId,
  TIMEFRAMES,
  type Timeframe,
  timeframeSchema,
} from '@marketlens/contract';
import type { GetPromptResult, Prompt, PromptMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Backend, OperationRunner } from './backend.js';
import { ToolError } from './errors.js';
import { analysisUri, POSITIONS_URI, spelledTimeframe, TRACK_RECORD_URI } from './resources.js';

/** Assets the morning brief links at most (a watchlist can hold more). */
export const BRIEF_ASSETS = 20;

const timeframeArg = timeframeSchema(TIMEFRAMES).default(DEFAULT_TIMEFRAME);
const exchangeArg = z.string().trim().min(1).max(64);

/** One prompt: its listing, the schema of its arguments and the messages it answers. */
interface PromptDefinition<S extends z.ZodType = z.ZodType> {
  listing: Prompt;
  /** The operation whose data the prompt embeds; the prompt is listed where the backend runs it. */
  operation: OperationId;
  args: S;
  messages(run: OperationRunner, args: z.output<S>): Promise<PromptMessage[]>;
}

const define = <S extends z.ZodType>(p: PromptDefinition<S>) => p as unknown as PromptDefinition;

const TIMEFRAME_DESCRIPTION = `Timeframe: ${TIMEFRAMES.map(spelledTimeframe).join(', ')} (default 1d, free; the others need Pro)`;

const text = (t: string): PromptMessage => ({ role: 'user', content: { type: 'text', text: t } });

const embedded = (uri: string, data: unknown): PromptMessage => ({
  role: 'user',
  content: { type: 'resource', resource: { uri, mimeType: 'application/json', text: JSON.stringify(data) } },
});

const link = (uri: string, name: string, description: string): PromptMessage => ({
  role: 'user',
  content: { type: 'resource_link', uri, name, description, mimeType: 'application/json' },
});

const morningBrief = define({
  listing: {
    name: 'morning_brief',
    title: 'Morning brief of my watchlist',
    description:
      'A morning brief of your watchlist (your favorite assets): how each moved, what its signal and zones say on the timeframe, and what to watch today. Embeds the watchlist and links each asset’s analysis.',
    arguments: [{ name: 'timeframe', description: TIMEFRAME_DESCRIPTION, required: false }],
  },
  operation: 'market.favorites',
  args: z.object({ timeframe: timeframeArg }),
  async messages(run, { timeframe }: { timeframe: Timeframe }) {
    const rows = await run('market.favorites', { asset_class: 'all', sort: 'volume', sort_dir: 'desc', limit: 500 });
    const tf = spelledTimeframe(timeframe);
    if (rows.length === 0) {
      return [
        text(
          'My marketlens watchlist is empty. Suggest how to start one: list the most traded coins (list_assets) and ask which to add to my favorites (add_favorite_asset).',
        ),
      ];
    }
    const analysed = rows.filter((r) => !r.is_stablecoin).slice(0, BRIEF_ASSETS);
    return [
      text(
        `Give me a morning brief of my marketlens watchlist on the ${tf} timeframe. For each asset: the 24h and 7d move, the signal (Buy/Hold/Sell and its confidence), where the price stands against the published zones (entry, stop, take-profits) and the nearest support and resistance, and one thing to watch today. Read each linked analysis resource (or call get_asset_analysis with timeframe ${tf}); finish with the two or three assets that most need attention. This is analysis, not advice; marketlens cannot trade.`,
      ),
      text(`My watchlist (favorites), as JSON: ${JSON.stringify({ assets: rows })}`),
      ...analysed.map((r) =>
        link(analysisUri(r.id, timeframe), `analysis/${r.id}/${tf}`, `${r.name} (${r.symbol}) analysis, ${tf}`),
      ),
    ];
  },
});

const reviewPositions = define({
  listing: {
    name: 'review_positions',
    title: 'Review my open positions against the published zones',
    description:
      'Reviews your open positions (read-only) against the zones marketlens publishes for each asset: is the entry inside the entry zone, how far is the stop, which take-profit is next, does the signal still agree with the side. Embeds the positions and links each asset’s analysis.',
    arguments: [
      { name: 'timeframe', description: TIMEFRAME_DESCRIPTION, required: false },
      {
        name: 'exchange_id',
        description: 'Only positions on this exchange (an id of list_exchanges)',
        required: false,
      },
    ],
  },
  operation: 'accounts.positions',
  args: z.object({ timeframe: timeframeArg, exchange_id: exchangeArg.optional() }),
  async messages(run, { timeframe, exchange_id }: { timeframe: Timeframe; exchange_id?: string }) {
    const data = await run('accounts.positions', {});
    const positions =
      exchange_id === undefined ? data.positions : data.positions.filter((p) => p.connection_id === exchange_id);
    const tf = spelledTimeframe(timeframe);
    const where = exchange_id === undefined ? '' : ` on ${exchange_id}`;
    if (positions.length === 0) {
      return [text(`I have no open positions${where} in marketlens. Tell me so, and how to connect an exchange.`)];
    }
    const assets = [...new Map(positions.flatMap((p) => (p.asset ? [[p.asset.id, p.asset]] : []))).values()];
    return [
      text(
        `Review my open positions${where} against the zones marketlens publishes on the ${tf} timeframe. For each position: side, size, entry and mark; whether the entry sits inside the published entry zone; the distance to the plan's stop and to the next take-profit, in % and in R; whether the current signal agrees with the side; and the liquidation distance where there is one. A position without a live price is unpriced: say so rather than guess. Read the linked analyses (or call get_asset_analysis with timeframe ${tf}). Descriptive only: marketlens cannot place or change orders.`,
      ),
      embedded(POSITIONS_URI, { ...data, positions }),
      ...assets.map((a) =>
        link(analysisUri(a.id, timeframe), `analysis/${a.id}/${tf}`, `${a.name} (${a.symbol}) analysis, ${tf}`),
      ),
    ];
  },
});

const explainSignal = define({
  listing: {
    name: 'explain_signal',
    title: "Explain this asset's signal",
    description:
      "Explains an asset's Buy/Hold/Sell signal on a timeframe in plain words: which factors weigh for and against, how confident it is, the trade plan and its zones, and how the service's published plans have fared. Embeds the analysis.",
    arguments: [
      {
        name: 'asset_id',
        description: 'An asset id such as bitcoin (a ticker such as BTC is accepted)',
        required: true,
      },
      { name: 'timeframe', description: TIMEFRAME_DESCRIPTION, required: false },
    ],
  },
  operation: 'analysis.get',
  args: z.object({ asset_id: AssetAnalysisInput.shape.asset_id, timeframe: timeframeArg }),
  async messages(run, { asset_id, timeframe }: { asset_id: string; timeframe: Timeframe }) {
    const analysis = await run('analysis.get', { asset_id, timeframe, limit: 500 });
    const tf = spelledTimeframe(timeframe);
    const id = analysis.asset.id;
    return [
      text(
        `Explain the marketlens signal of ${analysis.asset.name} (${analysis.asset.symbol}) on ${tf} in plain words: the action and its confidence, each weighted factor and whether it argues for or against, the trade plan (entry zone, stop, take-profits, risk/reward), the nearest support and resistance, and what would change the signal. The analysis is embedded; the track record resource says how such plans have ended. Analysis, not advice.`,
      ),
      embedded(analysisUri(id, timeframe), analysis),
      link(TRACK_RECORD_URI, 'track-record', "The service's track record"),
    ];
  },
});

/** Every prompt, in the order `prompts/list` gives them. */
export const PROMPTS: readonly PromptDefinition[] = [morningBrief, reviewPositions, explainSignal];

/** The prompts the backend can serve. */
export function promptsOf(backend: Backend): readonly PromptDefinition[] {
  return PROMPTS.filter((p) => backend.runs(p.operation));
}

/** `prompts/get`: the prompt's messages for `args`; an unknown prompt or bad arguments are `InvalidRequest`. */
export async function getPrompt(
  backend: Backend,
  name: string,
  args: Record<string, string> | undefined,
): Promise<GetPromptResult> {
  const prompt = promptsOf(backend).find((p) => p.listing.name === name);
  if (!prompt) {
    throw new ToolError(
      'InvalidRequest',
      `Unknown prompt: ${name.slice(0, 100)} (one of ${promptsOf(backend)
        .map((p) => p.listing.name)
        .join(', ')})`,
    );
  }
  // An empty string is an argument not given (clients send the empty fields of their forms).
  const given = Object.fromEntries(Object.entries(args ?? {}).filter(([, v]) => v !== ''));
  const parsed = prompt.args.safeParse(given);
  if (!parsed.success) {
    const why = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.length > 0 ? i.path.join('.') : 'arguments'}: ${i.message}`)
      .join('; ');
    throw new ToolError('InvalidRequest', `Invalid arguments: ${why}`);
  }
  const messages = await prompt.messages(backend.run, parsed.data);
  return { description: prompt.listing.description, messages };
}
