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
 * a list in), the backend group it needs, and its handler, which gets the parsed input.
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: S;
  output: z.ZodObject;
  needs: BackendGroup;
  annotations: ToolAnnotations;
  run(backend: Required<Backend>, input: z.output<S>): Promise<ToolOutput>;
}

/** A tool with its input type checked against its handler (the catalog holds them type-erased). */
export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/** Annotations of a tool that only reads. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
/** Annotations of a tool that writes, idempotently (favorites, notes, preferences). */
export const IDEMPOTENT_WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
