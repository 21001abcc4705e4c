import { AppError } from '@marketlens/server';
import type { Command } from '../args.js';
import { dataError } from '../errors.js';
import { utc } from '../output/format.js';
import { printJson } from '../output/json.js';
import { adminSpec, asOperator, printListing } from './admin.js';

const clientsCommand: Command = {
  spec: adminSpec(
    'clients',
    'list the OAuth clients (MCP apps): who approved each, live tokens, oldest first',
    '',
    0,
    {},
    [
      "Unapproved clients go an hour after they registered, approved ones 90 days after their last live token; remove one now with 'marketlens admin clients remove <client_id>'.",
    ],
  ),
  async run(args, io) {
    const clients = await asOperator(args, io, (invoke) => invoke('admin.oauthClients', {}));
    printListing(
      args,
      io,
      {
        kind: 'admin.oauth_clients',
        key: 'clients',
        empty: 'no OAuth clients',
        header: ['client_id', 'name', 'registered', 'from', 'approved', 'by', 'live tokens'],
        cells: (c) => [
          c.id,
          c.name ?? '',
          utc(c.created_at),
          c.registered_from ?? '',
          c.authorized_at === null ? 'no' : utc(c.authorized_at),
          c.approved_by ?? '',
          String(c.live_tokens),
        ],
      },
      clients,
    );
  },
};

const clientRemoveCommand: Command = {
  spec: adminSpec('clients remove', 'remove an OAuth client with its codes and tokens', '<client_id>', 1, {}, [
    'Its users are signed out of that app and must approve it again; the app may register anew.',
  ]),
  async run(args, io) {
    const id = args.positionals[0];
    await asOperator(args, io, async (invoke) => {
      try {
        return await invoke('admin.removeOAuthClient', { client_id: id });
      } catch (err) {
        if (err instanceof AppError && err.code === 'NotFound')
          throw dataError('unknown_client', `no OAuth client ${id}`);
        throw err;
      }
    });
    if (args.flag('json')) printJson(io, 'admin.oauth_client.removed', { client_id: id, removed: true });
    else io.stdout(`OAuth client ${id} removed, with its codes and tokens\n`);
  },
};

/** `marketlens admin clients ...`: the operator's list and removal of OAuth clients. */
export const adminClientCommands: readonly Command[] = [clientsCommand, clientRemoveCommand];
