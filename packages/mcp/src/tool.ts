import { OPERATIONS, type OperationDeclaration, type OperationId } from '@marketlens/contract';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Backend } from './backend.js';

/** What a tool answers: the structured content (an object) and its readable text. */
export interface ToolOutput {
  data: Record<string, unknown>;
  text: string;
}

/** The backend groups a tool needs; it is listed only when the backend has them. */
export type BackendGroup = keyof Backend;

/**
 * One MCP tool: its name, description, input schema (the schema REST parses with, where REST has
 * one), output schema (the contract's schema of what REST answers, or of the object the tool wraps
 * a list in), the operation of the contract's registry it runs (`OPERATIONS`), whose effect gives
 * its annotations, the backend group it needs, and its handler, which gets the parsed input.
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: S;
  output: z.ZodObject;
  needs: BackendGroup;
  /** The declared operation the tool runs (two tools may run one: positions and their summary). */
  operation: OperationId;
  /** What the operation's declaration says about it (see {@link annotationsOf}). */
  annotations: ToolAnnotations;
  run(backend: Required<Backend>, input: z.output<S>): Promise<ToolOutput>;
}

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
 * A tool with its input type checked against its handler (the catalog holds them type-erased), and
 * its annotations taken from the operation it runs.
 */
export function defineTool<S extends z.ZodType>(tool: Omit<ToolDefinition<S>, 'annotations'>): ToolDefinition {
  return { ...tool, annotations: annotationsOf(OPERATIONS[tool.operation]) } as unknown as ToolDefinition;
}
