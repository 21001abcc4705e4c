import type { App } from '../../src/app.js';

export interface OperationEntry {
  method: string;
  /** OpenAPI path, e.g. `/v1/users/api_keys/{key_id}`. */
  path: string;
  operationId: string;
  security: Record<string, string[]>[];
  hasBody: boolean;
}

interface OperationObject {
  operationId?: string;
  security?: Record<string, string[]>[];
  requestBody?: unknown;
}

/** Every registered operation, read from the app's own OpenAPI document (the route table). */
export function registeredOperations(app: App): OperationEntry[] {
  const doc = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '0' } });
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const op = (item as Record<string, OperationObject | undefined>)[method];
      if (!op) continue;
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        security: op.security ?? [],
        hasBody: op.requestBody !== undefined,
      });
    }
  }
  return out;
}

/** A concrete URL path for an OpenAPI path, with each `{param}` replaced. */
export function fillPath(path: string, value: (name: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value(name)));
}

/**
 * The body of an answer as text. A stream (`text/event-stream`, `GET /v2/stream`) never ends on
 * its own: its first event is read (the `ready` frame, or the `error` of a stream refused) and the
 * stream cancelled, so suites that send every operation read what it answered without waiting
 * forever.
 */
export async function bodyText(res: Response): Promise<string> {
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream') || res.body === null) return res.text();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('\n\n')) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}
