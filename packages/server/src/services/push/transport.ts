/** The HTTP leg of Web Push: one encrypted request to a push service. */

/** A Web Push request as the web-push library prepares it (VAPID `Authorization`, aes128gcm body). */
export interface PushRequest {
  endpoint: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/** What the push service answered. */
export interface PushResponse {
  status: number;
}

/** Sends one push request; rejects on a network failure (the sender retries then). */
export type PushTransport = (request: PushRequest) => Promise<PushResponse>;

/** How long one push request may take before it counts as a failure to retry. */
export const PUSH_TIMEOUT_MS = 10_000;

/** The default transport: `fetch`, with a timeout. */
export const fetchTransport: PushTransport = async (request) => {
  const res = await fetch(request.endpoint, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
  });
  // The body is not needed; reading it frees the connection.
  await res.arrayBuffer().catch(() => undefined);
  return { status: res.status };
};
