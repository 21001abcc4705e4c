import { type Command, commandHelp, parseCommand } from './args.js';
import { adminCommands as userAdminCommands } from './commands/admin.js';
import { adminClientCommands } from './commands/admin-clients.js';
import { promotionAdminCommands } from './commands/admin-promotions.js';
import { analyzeCommand, fearGreedCommand, overviewCommand, signalCommand, zonesCommand } from './commands/analysis.js';
import { backtestCommand } from './commands/backtest.js';
import { chartCommand } from './commands/chart.js';
import { dbMigrateCommand } from './commands/db.js';
import { importCommand } from './commands/import.js';
import { mcpCommand } from './commands/mcp.js';
import { screenCommand } from './commands/screen.js';
import { serveCommand } from './commands/serve.js';
import { trackRecordCommand } from './commands/track-record.js';
import { workerCommand } from './commands/worker.js';
import { EXIT, type ExitCode, toCliError, usageError } from './errors.js';
import type { Io } from './io.js';
import { styleFor } from './output/style.js';

/** The package version, injected by tsup; `dev` when run from source. */
declare const __MARKETLENS_VERSION__: string | undefined;
export const VERSION = typeof __MARKETLENS_VERSION__ === 'string' ? __MARKETLENS_VERSION__ : 'dev';

/** Every `marketlens admin ...` subcommand: users and keys, then promotions and campaigns. */
const adminCommands: readonly Command[] = [...userAdminCommands, ...adminClientCommands, ...promotionAdminCommands];

const COMMANDS: readonly Command[] = [
  analyzeCommand,
  signalCommand,
  zonesCommand,
  fearGreedCommand,
  overviewCommand,
  screenCommand,
  chartCommand,
  importCommand,
  backtestCommand,
  trackRecordCommand,
  serveCommand,
  mcpCommand,
  workerCommand,
  dbMigrateCommand,
];

/** The top-level help: every command with its summary. */
export function mainHelp(): string {
  const rows: [string, string][] = COMMANDS.map((c) => [c.spec.name, c.spec.summary]);
  for (const c of adminCommands) rows.push([c.spec.name, c.spec.summary]);
  const width = Math.max(...rows.map(([n]) => n.length));
  return [
    `marketlens ${VERSION}: technical analysis, signals and trade plans at the terminal`,
    '',
    'Usage: marketlens <command> [options]',
    '',
    'Commands:',
    ...rows.map(([n, s]) => `  ${n.padEnd(width)}  ${s}`),
    '',
    'Global options:',
    '  -h, --help     show help (also after any command: marketlens analyze --help)',
    '  -v, --version  print the version',
    '',
    'Exit codes: 0 ok, 1 runtime failure, 2 usage error, 3 data error (unknown asset, bad file).',
    "Every command with --json prints one JSON object on stdout (README: JSON output); a data command's",
    'is the REST answer of the same question, and its errors carry the REST error codes.',
    '',
  ].join('\n');
}

/** The command whose name's words start `argv`, the longest one (`admin keys create` before `admin keys`). */
function find(argv: readonly string[]): { command: Command; rest: readonly string[] } | undefined {
  let best: Command | undefined;
  let bestWords = 0;
  for (const command of argv[0] === 'admin' ? adminCommands : COMMANDS) {
    const words = command.spec.name.split(' ');
    if (words.length > bestWords && words.every((w, i) => argv[i] === w)) {
      best = command;
      bestWords = words.length;
    }
  }
  return best === undefined ? undefined : { command: best, rest: argv.slice(bestWords) };
}

function adminHelp(): string {
  const width = Math.max(...adminCommands.map((c) => c.spec.name.length));
  return [
    'marketlens admin: manage the users of a server data folder (MARKETLENS_DATA_DIR, default ./data)',
    '',
    'Usage: marketlens admin <subcommand> [options]',
    '',
    'Subcommands:',
    ...adminCommands.map((c) => `  ${c.spec.name.padEnd(width)}  ${c.spec.summary}`),
    '',
  ].join('\n');
}

/** Runs the command line; resolves to the exit code (never throws, never calls process.exit). */
export async function run(argv: readonly string[], io: Io): Promise<ExitCode> {
  const wantsJson = argv.includes('--json');
  try {
    const [first] = argv;
    if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
      const topic = first === 'help' ? argv.slice(1) : [];
      const found = topic.length > 0 ? find(topic) : undefined;
      io.stdout(found === undefined ? mainHelp() : commandHelp(found.command.spec));
      return EXIT.ok;
    }
    if (first === '--version' || first === '-v') {
      io.stdout(`${VERSION}\n`);
      return EXIT.ok;
    }
    if (first === 'admin' && (argv[1] === undefined || argv[1] === '--help' || argv[1] === '-h')) {
      io.stdout(adminHelp());
      return EXIT.ok;
    }
    const found = find(argv);
    if (found === undefined) {
      if (first === 'admin') throw usageError(`unknown admin subcommand '${argv[1]}'`, 'admin');
      throw usageError(
        first.startsWith('-')
          ? `unknown option '${first}' (options go after the command)`
          : `unknown command '${first}'`,
      );
    }
    const parsed = parseCommand(found.command.spec, found.rest);
    if (parsed === 'help') {
      io.stdout(commandHelp(found.command.spec));
      return EXIT.ok;
    }
    await found.command.run(parsed, io);
    return EXIT.ok;
  } catch (err) {
    const e = toCliError(err);
    if (wantsJson) {
      io.stderr(`${JSON.stringify({ error: { code: e.code, message: e.message, exit_code: e.exitCode } })}\n`);
    } else {
      const style = styleFor(io, 'stderr');
      const hint =
        e.exitCode === EXIT.usage
          ? `\nRun 'marketlens ${e.command === undefined ? '' : `${e.command} `}--help' for usage.`
          : '';
      io.stderr(`${style.red('error')}: ${e.message}${hint}\n`);
    }
    return e.exitCode;
  }
}
