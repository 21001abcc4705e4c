import { parseArgs } from 'node:util';
import { usageError } from './errors.js';
import type { Io } from './io.js';

/** One option of a command. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** Placeholder of the value in the help (`<tf>`). */
  value?: string;
  description: string;
  /** Allowed values of a string option; anything else is a usage error. */
  choices?: readonly string[];
}

/** A command: its name, help text, options and positional arguments. */
export interface CommandSpec {
  /** `analyze`, or `admin tier` for a subcommand. */
  name: string;
  summary: string;
  /** Positional part of the usage line: `<asset>`, `[asset...]`. */
  args: string;
  minArgs: number;
  maxArgs: number;
  options: Readonly<Record<string, OptionSpec>>;
  /** Lines shown under "Examples". */
  examples?: readonly string[];
  /** Extra paragraphs of the help. */
  notes?: readonly string[];
}

/** Parsed arguments of one command. */
export interface Parsed {
  readonly positionals: readonly string[];
  /** A string option's value, undefined when absent. */
  string(name: string): string | undefined;
  /** A boolean option. */
  flag(name: string): boolean;
}

export const HELP_OPTION: OptionSpec = { type: 'boolean', short: 'h', description: 'show this help' };
export const JSON_OPTION: OptionSpec = {
  type: 'boolean',
  description: 'print one JSON object on stdout (see README: JSON output)',
};

/**
 * Parses `argv` (after the command name) strictly: unknown options, missing values, bad choices and
 * a wrong number of positionals are usage errors (exit 2) that name the command.
 */
export function parseCommand(spec: CommandSpec, argv: readonly string[]): Parsed | 'help' {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { help: HELP_OPTION };
  for (const [name, o] of Object.entries(spec.options)) {
    options[name] = o.short === undefined ? { type: o.type } : { type: o.type, short: o.short };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageError(cleanParseMessage(err), spec.name);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help === true) return 'help';
  for (const [name, o] of Object.entries(spec.options)) {
    const v = values[name];
    if (typeof v === 'string' && o.choices !== undefined && !o.choices.includes(v)) {
      throw usageError(`--${name} must be one of ${o.choices.join(', ')}; got '${v}'`, spec.name);
    }
  }
  const positionals = parsed.positionals;
  if (positionals.length < spec.minArgs) throw usageError(`missing argument: ${spec.args}`, spec.name);
  if (positionals.length > spec.maxArgs) {
    throw usageError(`unexpected argument '${positionals[spec.maxArgs]}'`, spec.name);
  }
  return {
    positionals,
    string: (name) => {
      const v = values[name];
      return typeof v === 'string' ? v : undefined;
    },
    flag: (name) => values[name] === true,
  };
}

function cleanParseMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // node's messages end with advice for programmers ("To specify a positional argument ..."): keep the first sentence.
  const first = message.split('. ')[0].replace(/\.$/, '');
  return first.replace(/^Unknown option/, 'unknown option').replace(/^Option/, 'option');
}

/** The `--help` text of a command. */
export function commandHelp(spec: CommandSpec): string {
  const lines = [
    `marketlens ${spec.name}: ${spec.summary}`,
    '',
    `Usage: marketlens ${spec.name} ${spec.args}`.trimEnd(),
  ];
  const rows: [string, string][] = [];
  for (const [name, o] of Object.entries({ ...spec.options, help: HELP_OPTION })) {
    const flag = `${o.short === undefined ? '    ' : `-${o.short}, `}--${name}${o.type === 'string' ? ` ${o.value ?? '<value>'}` : ''}`;
    const choices = o.choices === undefined ? '' : ` (${o.choices.join(', ')})`;
    rows.push([flag, `${o.description}${choices}`]);
  }
  lines.push('', 'Options:');
  const width = Math.max(...rows.map(([f]) => f.length));
  for (const [f, d] of rows) lines.push(`  ${f.padEnd(width)}  ${d}`);
  for (const note of spec.notes ?? []) lines.push('', note);
  if (spec.examples !== undefined && spec.examples.length > 0) {
    lines.push('', 'Examples:');
    for (const e of spec.examples) lines.push(`  ${e}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A command the dispatcher can run. */
export interface Command {
  readonly spec: CommandSpec;
  run(args: Parsed, io: Io): Promise<void>;
}
