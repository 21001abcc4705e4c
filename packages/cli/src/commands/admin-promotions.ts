import { readFileSync } from 'node:fs';
import type { OperationOutput } from '@marketlens/contract';
import { AppError, PromotionAdminError } from '@marketlens/server';
import type { Command, Parsed } from '../args.js';
import { dataError, usageError } from '../errors.js';
import { table, utc } from '../output/format.js';
import { printJson } from '../output/json.js';
import { adminSpec, asOperator } from './admin.js';

type AdminPromotion = OperationOutput<'admin.createPromotion'>;
type AdminCampaign = OperationOutput<'admin.createCampaign'>;

const FILE_OPTION = {
  type: 'string',
  value: '<file.json>',
  description: 'a JSON object with any of the fields; options given on the command line win',
} as const;

/** The fields of a `--file`: a JSON object, else a usage error. */
function fileFields(args: Parsed, command: string): Record<string, unknown> {
  const path = args.string('file');
  if (path === undefined) return {};
  const text = readFileSync(path, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw usageError(`--file ${path} is not JSON: ${err instanceof Error ? err.message : String(err)}`, command);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw usageError(`--file ${path} must hold one JSON object`, command);
  return value as Record<string, unknown>;
}

/** Options given on the command line, by field name; absent options are left out. */
function given(args: Parsed, map: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [option, field] of Object.entries(map)) {
    const v = args.string(option);
    if (v !== undefined) out[field] = v;
  }
  return out;
}

/**
 * Admin refusals: bad input (the registry's parse, an `InvalidRequest` without a reason) is a usage
 * error (exit 2); the others are data errors (exit 3) with the reason the server gives
 * (`unknown_exchange`, `closed`, ...; `exists` named by what exists: `promotion_exists`).
 */
async function refusing<T>(command: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof PromotionAdminError) {
      if (err.reason === 'invalid') throw usageError(err.message, command);
      throw dataError(err.reason === 'exists' ? `${command.split(' ')[1]}_exists` : err.reason, err.message);
    }
    if (err instanceof AppError && err.code === 'InvalidRequest') throw usageError(err.message, command);
    throw err;
  }
}

function promotionRow(p: AdminPromotion): string[] {
  return [p.connection_id, p.title, String(p.invited), String(p.claimed), utc(p.created_at), p.id];
}

const PROMOTION_OPTIONS = {
  title: { type: 'string', value: '<text>', description: 'card title (required unless in --file)' },
  description: { type: 'string', value: '<text>', description: 'card text (required unless in --file)' },
  value: {
    type: 'string',
    value: '<text>',
    description: 'promotional_value, e.g. "30 days of Pro" (required unless in --file)',
  },
  bonus: { type: 'string', value: '<text>', description: 'bonus_description, default empty' },
  partner: { type: 'string', value: '<name>', description: "partner_name, default the exchange's name" },
  'referral-url': { type: 'string', value: '<url>', description: "default the catalog's referral link" },
  'uid-pattern': {
    type: 'string',
    value: '<regex>',
    description: 'the UID check (whole value), default 5..20 digits (a 0x address on hyperliquid)',
  },
  'uid-label': { type: 'string', value: '<text>', description: 'label of the UID field, with --uid-pattern' },
  file: FILE_OPTION,
} as const;

const promotionCreateCommand: Command = {
  spec: adminSpec(
    'promotion create',
    "publish an exchange's promotion (30 days of Pro for invited accounts that verify their UID)",
    '<exchange>',
    1,
    PROMOTION_OPTIONS,
    [
      'The exchange is a catalog id (bybit, okx, binance, ...); each exchange has at most one promotion (exit 3, promotion_exists). --file may also give theme {primary_color, background_color, text_color}, steps [{title, description, action_url}] and validations [{field: "uid", label, pattern, message}].',
    ],
  ),
  async run(args, io) {
    const command = 'admin promotion create';
    const input: Record<string, unknown> = {
      ...fileFields(args, command),
      connection_id: args.positionals[0],
      ...given(args, {
        title: 'title',
        description: 'description',
        value: 'promotional_value',
        bonus: 'bonus_description',
        partner: 'partner_name',
        'referral-url': 'referral_url',
      }),
    };
    const pattern = args.string('uid-pattern');
    if (pattern !== undefined)
      input.validations = [
        {
          field: 'uid',
          label: args.string('uid-label') ?? 'Account UID',
          pattern,
          message: `must match ${pattern}`,
        },
      ];
    else if (args.string('uid-label') !== undefined) throw usageError('--uid-label goes with --uid-pattern', command);
    const promotion = await asOperator(args, io, (invoke) =>
      refusing(command, () => invoke('admin.createPromotion', input)),
    );
    if (args.flag('json')) printJson(io, 'admin.promotion', { promotion });
    else io.stdout(`${promotion.partner_name}: promotion ${promotion.id} published (${promotion.title})\n`);
  },
};

const promotionListCommand: Command = {
  spec: adminSpec('promotion list', 'list the promotions with their invited and claimed counts', '', 0),
  async run(args, io) {
    const promotions = await asOperator(args, io, (invoke) => invoke('admin.promotions', {}));
    if (args.flag('json')) {
      printJson(io, 'admin.promotions', { promotions });
      return;
    }
    if (promotions.length === 0) {
      io.stdout('no promotions\n');
      return;
    }
    io.stdout(table([['exchange', 'title', 'invited', 'claimed', 'created', 'id'], ...promotions.map(promotionRow)]));
  },
};

const campaignCreateCommand: Command = {
  spec: adminSpec(
    'campaign create',
    'publish a campaign banner, live until its registration closes',
    '<id>',
    1,
    {
      url: { type: 'string', value: '<url>', description: 'where the banner leads (required unless in --file)' },
      'video-url': { type: 'string', value: '<url>', description: 'banner video (required unless in --file)' },
      close: {
        type: 'string',
        value: '<time>',
        description: 'registration_close: ISO date-time or epoch ms, in the future (required unless in --file)',
      },
      'icon-url': { type: 'string', value: '<url>', description: 'exchange_icon_url (required unless in --file)' },
      'icon-alt': { type: 'string', value: '<text>', description: 'exchange_icon_alt (required unless in --file)' },
      position: { type: 'string', value: '<css>', description: 'web_banner_video_position, default center' },
      'prize-amount': { type: 'string', value: '<text>', description: 'prize_amount, default none' },
      'prize-label': { type: 'string', value: '<text>', description: 'prize_banner_label, default none' },
      'prize-icon-url': { type: 'string', value: '<url>', description: 'prize_icon_url, default none' },
      file: FILE_OPTION,
    },
    ['The id is a slug (lowercase letters, digits, dashes) clients keep; a taken id is exit 3 (campaign_exists).'],
  ),
  async run(args, io) {
    const command = 'admin campaign create';
    const input: Record<string, unknown> = {
      ...fileFields(args, command),
      id: args.positionals[0],
      ...given(args, {
        url: 'url',
        'video-url': 'video_url',
        'icon-url': 'exchange_icon_url',
        'icon-alt': 'exchange_icon_alt',
        position: 'web_banner_video_position',
        'prize-amount': 'prize_amount',
        'prize-label': 'prize_banner_label',
        'prize-icon-url': 'prize_icon_url',
      }),
    };
    const close = args.string('close');
    if (close !== undefined) input.registration_close = /^\d+$/.test(close) ? Number(close) : close;
    const campaign = await asOperator(args, io, (invoke) =>
      refusing(command, () => invoke('admin.createCampaign', input)),
    );
    if (args.flag('json')) printJson(io, 'admin.campaign', { campaign }, CAMPAIGN_JSON_VERSION);
    else
      io.stdout(`campaign ${campaign.id} published, live until ${utc(Date.parse(campaign.registration_close))} UTC\n`);
  },
};

/** The campaign shapes' version: 2 since `registration_close` is the ISO time REST publishes. */
const CAMPAIGN_JSON_VERSION = 2;

function campaignRow(c: AdminCampaign): string[] {
  return [c.id, c.live ? 'live' : 'closed', utc(Date.parse(c.registration_close)), c.prize_amount ?? '-', c.url];
}

const campaignListCommand: Command = {
  spec: adminSpec('campaign list', 'list every campaign (closed ones too) by registration close', '', 0),
  async run(args, io) {
    const campaigns = await asOperator(args, io, (invoke) => invoke('admin.campaigns', {}));
    if (args.flag('json')) {
      printJson(io, 'admin.campaigns', { campaigns }, CAMPAIGN_JSON_VERSION);
      return;
    }
    if (campaigns.length === 0) {
      io.stdout('no campaigns\n');
      return;
    }
    io.stdout(table([['id', 'state', 'registration close', 'prize', 'url'], ...campaigns.map(campaignRow)]));
  },
};

const inviteCommand: Command = {
  spec: adminSpec(
    'invite',
    "invite an account to an exchange's promotion so it can claim it",
    '<email> <exchange-or-promotion-id>',
    2,
    {},
    ['Inviting again changes nothing (created: false). The account must exist (exit 3, unknown_user).'],
  ),
  async run(args, io) {
    const [email, promotion] = args.positionals;
    const invitation = await asOperator(args, io, (invoke) =>
      refusing('admin invite', () => invoke('admin.invite', { user: email, promotion })),
    );
    if (args.flag('json')) {
      printJson(io, 'admin.invitation', { invitation });
      return;
    }
    const state = invitation.claimed ? 'already claimed' : invitation.created ? 'invited' : 'already invited';
    io.stdout(`${invitation.user.email}: ${state} to the ${invitation.promotion.connection_id} promotion\n`);
  },
};

/** `marketlens admin promotion|campaign|invite ...` subcommands. */
export const promotionAdminCommands: readonly Command[] = [
  promotionCreateCommand,
  promotionListCommand,
  campaignCreateCommand,
  campaignListCommand,
  inviteCommand,
];
