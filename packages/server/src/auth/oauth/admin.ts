/**
 * The operator's view of OAuth clients (`marketlens admin clients`): every stored client with its
 * approval and live tokens, and the removal of one (its codes and tokens with it).
 */
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { OAuthClientView } from '../../storage/oauth-types.js';
import type { Storage } from '../../storage/types.js';

/** A client as an operator sees it: never its secret's hash. */
export type AdminOAuthClient = Omit<OAuthClientView, 'secret_hash' | 'metadata' | 'registered_from'> & {
  /** The address group it registered from; null for older rows. */
  registered_from: string | null;
  confidential: boolean;
};

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

/**
 * The operator's operations on OAuth clients (`admin.oauthClients`, `admin.removeOAuthClient`), run
 * only for the operator (`marketlens admin clients ...`). Removing an unknown client is `NotFound`.
 */
export function oauthAdminUseCases(deps: AppDeps) {
  return {
    oauthClients: () => listOAuthClients(deps.storage, deps.now()),
    async removeOAuthClient(input: { client_id: string }) {
      if (!(await removeOAuthClient(deps.storage, input.client_id)))
        throw new AppError('NotFound', `No OAuth client ${input.client_id}`);
      return { client_id: input.client_id, removed: true as const };
    },
  };
}
