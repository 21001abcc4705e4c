import {
  OPERATIONS,
  type OperationDeclaration,
  type OperationId,
  type OperationInput,
  type OperationOutput,
} from '@marketlens/contract';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { OperationRunner } from './backend.js';

/** What a tool answers: the structured content (an object) and its readable text. */
export interface ToolOutput {
  data: Record<string, unknown>;
  text: string;
}

/**
 * One MCP tool: its name, description, input schema (the schema REST parses with, where REST has
 * one), output schema (the contract's schema of what REST answers, or of the object the tool wraps
 * a list in), the operation of the contract's registry it runs (`OPERATIONS`), whose effect gives
 * its annotations and whose availability on a backend decides whether it is listed, and its
 * handler, which gets the parsed input.
 */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodObject;
  /** The declared operation the tool runs (two tools may run one: positions and their summary). */
  operation: OperationId;
  /** What the operation's declaration says about it (see {@link annotationsOf}). */
  annotations: ToolAnnotations;
  run(run: OperationRunner, input: unknown): Promise<ToolOutput>;
}

/**
 * A tool as written in `tools/*.ts`: what it is called and says, the operation it runs, and how the
 * operation's answer becomes its structured content and text. Everything else defaults to the
 * operation's declaration.
 */
/** The parsed arguments of a tool: its own input schema's output, or the operation's input. */
export type ToolArgs<K extends OperationId, S extends z.ZodType | undefined> = S extends z.ZodType
  ? z.output<S>
  : OperationInput<K>;

interface ToolSpecFields<K extends OperationId, S extends z.ZodType | undefined> {
  name: string;
  title: string;
  description: string;
  operation: K;
  /** The arguments' schema; default the operation's input schema. */
  input?: S;
  /**
   * Structured content is an object: a list the operation answers is wrapped under this key
   * (`{ alerts: [...] }`), and the output schema is the same wrapping of the operation's.
   */
  list?: string;
  /** The schema of the structured content; default the operation's output (wrapped under `list`). */
  output?: z.ZodObject;
  /** The structured content; default the operation's answer (wrapped under `list`). */
  data?: (out: OperationOutput<K>, args: ToolArgs<K, S>) => Record<string, unknown>;
  /** The readable text of the answer. */
  text(out: OperationOutput<K>, args: ToolArgs<K, S>): string;
}

/**
 * A tool as written in `tools/*.ts` (see {@link ToolSpecFields}), with `request`, the operation's
 * input for the parsed arguments: required where the arguments are not already that input.
 */
export type ToolSpec<K extends OperationId, S extends z.ZodType | undefined> = ToolSpecFields<K, S> &
  (ToolArgs<K, S> extends OperationInput<K>
    ? { request?: (args: ToolArgs<K, S>) => OperationInput<K> }
    : { request: (args: ToolArgs<K, S>) => OperationInput<K> });

/**
 * The MCP annotations of a declared operation: a read is `readOnlyHint`; a write says whether it
 * deletes (`destructiveHint`) and whether repeating it changes nothing more (`idempotentHint`);
 * `openWorldHint` only where the operation reaches outside the service (a webhook's URL).
 */
export function annotationsOf(op: OperationDeclaration): ToolAnnotations {
  if (op.effect === 'read') return { readOnlyHint: true, openWorldHint: op.openWorld };
  return {
    readOnlyHint: false,
    destructiveHint: op.effect === 'destructive',
    idempotentHint: op.idempotent,
    openWorldHint: op.openWorld,
  };
}

/**
 * A tool over the operation it runs: its input and output schemas default to the declaration's,
 * its annotations are the declaration's, and its handler runs the operation and renders the answer.
 * The catalog holds tools type-erased; the spec's types are checked here.
 */
export function defineTool<K extends OperationId, S extends z.ZodType | undefined = undefined>(
  spec: ToolSpec<K, S>,
): ToolDefinition {
  const op: OperationDeclaration = OPERATIONS[spec.operation];
  const { list, request, data, text } = spec;
  const output = spec.output ?? (list === undefined ? op.output : z.object({ [list]: op.output }));
  if (!(output instanceof z.ZodObject)) throw new Error(`${spec.name}: structured content must be an object`);
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input ?? op.input,
    output,
    operation: spec.operation,
    annotations: annotationsOf(op),
    async run(run, input) {
      const args = input as ToolArgs<K, S>;
      const out = await run(spec.operation, request ? request(args) : (args as OperationInput<K>));
      const content = data ? data(out, args) : list === undefined ? { ...(out as object) } : { [list]: out };
      return { data: content as Record<string, unknown>, text: text(out, args) };
    },
  };
}

/** What a deletion tool answers: the id deleted (the operation answers nothing, REST's `data: null`). */
export const Deletion = z.object({ id: z.uuid(), deleted: z.literal(true) });
