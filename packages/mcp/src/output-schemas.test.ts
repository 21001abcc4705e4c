import { OPERATIONS } from '@marketlens/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CATALOG } from './catalog.js';
import { toolListing } from './server.js';

describe('published tool schemas', () => {
  it('gives every tool an inline object input schema and an output schema (its data, or an error)', () => {
    for (const tool of CATALOG) {
      const listing = toolListing(tool);
      const text = JSON.stringify([listing.inputSchema, listing.outputSchema]);
      expect(text, tool.name).not.toContain('$ref');
      expect(text, tool.name).not.toContain('definitions');
      expect(listing.inputSchema.type, tool.name).toBe('object');
      expect(listing.outputSchema?.type, tool.name).toBe('object');
      const branches = (listing.outputSchema as { anyOf?: { required?: string[] }[] }).anyOf ?? [];
      expect(branches.length, tool.name).toBe(2);
      expect(branches[1]?.required).toEqual(['code', 'message']);
    }
  });

  it("publishes what its operation answers, and that operation's effect as its annotations", () => {
    const answers = new Map<string, string>();
    for (const tool of CATALOG) {
      const op = OPERATIONS[tool.operation];
      const fields = Object.entries(tool.output.shape);
      let how: string;
      if (tool.output === op.output) how = 'as declared';
      else if (op.output instanceof z.ZodArray && fields.length === 1 && fields[0]?.[1] instanceof z.ZodArray) {
        // A list wrapped in an object: structured content must be an object.
        expect(fields[0][1].element, tool.name).toBe(op.output.element);
        how = 'a list wrapped';
      } else if (op.output instanceof z.ZodObject && Object.values(op.output.shape).includes(tool.output)) {
        how = 'one field';
      } else {
        // An operation that answers nothing (a deletion): the tool says what it deleted.
        expect(op.output, tool.name).toBeInstanceOf(z.ZodNull);
        expect(Object.keys(tool.output.shape), tool.name).toEqual(['id', 'deleted']);
        how = 'a deletion';
      }
      answers.set(tool.name, how);
      const hints = toolListing(tool).annotations;
      expect(hints?.readOnlyHint, tool.name).toBe(op.effect === 'read');
      expect(hints?.destructiveHint ?? false, tool.name).toBe(op.effect === 'destructive');
      expect(hints?.openWorldHint, tool.name).toBe(op.openWorld);
      if (op.effect !== 'read') expect(hints?.idempotentHint, tool.name).toBe(op.idempotent);
    }
    // Every way of answering is reached by some tool.
    expect(new Set(answers.values())).toEqual(new Set(['as declared', 'a list wrapped', 'one field', 'a deletion']));
    expect(answers.get('get_portfolio_summary')).toBe('one field');
  });
});
