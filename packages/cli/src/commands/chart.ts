import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { type Command, JSON_OPTION, type Parsed } from '../args.js';
import { svgToPng } from '../chart/png.js';
import { type ChartBand, type ChartLevel, renderSvg } from '../chart/svg.js';
import { candlesOfAnswer } from '../data/operations.js';
import { DATA_OPTIONS, describeServed } from '../data/source.js';
import { CliError, EXIT, usageError } from '../errors.js';
import { priceAt } from '../output/format.js';
import { printData } from '../output/json.js';
import { asking, chartLevels, servedOf } from './analysis.js';

function intOption(args: Parsed, name: string, fallback: number, min: number, max: number): number {
  const raw = args.string(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw usageError(`--${name} must be an integer ${min}..${max}; got '${raw}'`, 'chart');
  return n;
}

export const chartCommand: Command = {
  spec: {
    name: 'chart',
    summary: 'an SVG or PNG chart: candles, zones, entry, stop, targets and levels',
    args: '[asset] --out <file.svg|file.png>',
    minArgs: 0,
    maxArgs: 1,
    options: {
      ...DATA_OPTIONS,
      out: { type: 'string', short: 'o', value: '<file>', description: 'where to write; .svg or .png (required)' },
      bars: { type: 'string', value: '<n>', description: 'candles drawn, 20..1000, default 120' },
      width: { type: 'string', value: '<px>', description: 'image width, 300..4000, default 1000' },
      height: { type: 'string', value: '<px>', description: 'image height, 200..3000, default 560' },
      json: JSON_OPTION,
    },
    examples: ['marketlens chart bitcoin --out btc.svg', 'marketlens chart ethereum --tf h4 --out eth.png --bars 200'],
    notes: ['PNG output loads @resvg/resvg-js at run time; install it when marketlens says it is missing.'],
  },
  async run(args, io) {
    const out = args.string('out');
    if (out === undefined) throw usageError('--out <file.svg|file.png> is required', 'chart');
    const ext = extname(out).toLowerCase();
    if (ext !== '.svg' && ext !== '.png') throw usageError(`--out must end in .svg or .png; got '${out}'`, 'chart');
    const bars = intOption(args, 'bars', 120, 20, 1000);
    const width = intOption(args, 'width', 1000, 300, 4000);
    const height = intOption(args, 'height', 560, 200, 3000);
    // The candles of GET /v2/analysis/{asset}/candles and the analysis of the same question on them.
    const { a, answer, quoting } = await asking(args, io, 'chart', async (ops, q) => {
      const [a, answer] = await Promise.all([ops.analysis(q), ops.candles(q)]);
      return { a, answer, quoting: await ops.quoting(a) };
    });
    const candles = candlesOfAnswer(answer);
    const price = priceAt(quoting.tick_size);
    const levels: ChartLevel[] = chartLevels(a, price);
    const bands: ChartBand[] = [];
    const s = a.levels.nearest_support;
    const r = a.levels.nearest_resistance;
    if (s !== null) bands.push({ low: s.low, high: s.high, kind: 'support' });
    if (r !== null) bands.push({ low: r.low, high: r.high, kind: 'resistance' });
    if (a.zone.entry_zone !== null) bands.push({ ...a.zone.entry_zone, kind: 'entry' });
    const svg = renderSvg({
      candles,
      bars,
      width,
      height,
      title: `${describeServed(a)}${quoting.quote === null ? '' : `, in ${quoting.quote}`}  signal ${a.signal.action.toUpperCase()}`,
      tick: quoting.tick_size,
      levels,
      bands,
    });
    const body = ext === '.png' ? await svgToPng(svg) : svg;
    try {
      await writeFile(out, body);
    } catch (err) {
      throw new CliError(
        EXIT.failure,
        'write_failed',
        `cannot write ${out}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const drawn = Math.min(bars, candles.time.length);
    if (args.flag('json')) {
      printData(io, 'chart', {
        ...servedOf(answer),
        as_of: answer.as_of,
        out,
        format: ext.slice(1),
        width,
        height,
        bars: drawn,
      });
      return;
    }
    io.stdout(`wrote ${out} (${ext.slice(1).toUpperCase()}, ${width}x${height}, ${drawn} candles)\n`);
  },
};
