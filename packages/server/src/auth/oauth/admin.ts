/**
 * The operator's view of OAuth clients (`marketlens admin clients`): every stored client with its
 * approval and live tokens, and the removal of one (its codes and tokens with it).
 */
import type { OAuthClientView } from '../../storage/oauth-types.js';
import type { Storage } from '../../storage/types.js';

/** A client as an operator sees it: never its secret's hash. */
export type AdminOAuthClient = Omit<OAuthClientView, 'secret_hash' | 'metadata'> & { confidential: boolean };

/** Every stored OAuth client, oldest first, with who approved it and its live tokens at `now`. */
export async function listOAuthClients(storage: Storage, now: number): Promise<AdminOAuthClient[]> {
  return (await storage.oauth.listClients(now)).map(({ secret_hash, metadata: _, ...c }) => ({
    ...c,
    registered_from: c.registered_from ?? null,
    confidential: secret_hash !== null,
  }));
}

/** Removes a client with its codes and tokens (its users must approve it again); false when unknown. */
export function removeOAuthClient(storage: Storage, id: string): Promise<boolean> {
  return storage.oauth.deleteClient(id);
}
