import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type LuaScript, luaScript, runScript } from './client.js';

/**
 * One key's window as Redis holds it: one sorted set of the admitted requests (score = arrival
 * time, member = `weight:instance:sequence`, unique per request, so two requests of the same
 * millisecond and weight are two members) and of their running sum, held as the score
 * `-1 - sum` of the member `#` (below every time, so ranges over times never meet it). An
 * admission thus reads only the entries that just left the window, not the whole window, and
 * touches one key, which expires a window after the last admission. A refusal finds when the
 * request would fit from the oldest entries, as the in-memory budget does.
 *
 * KEYS: log. ARGV: now, windowMs, limit, weight, member, now - windowMs, the key's TTL in ms
 * (both formatted by the caller: Lua's number formatting costs as much as a Redis command).
 * Reply: { admitted (1 or 0), units used (after it when admitted), retryAt }; a number that is
 * not whole comes back as a string, since Redis truncates a Lua number in a reply.
 */
const SPEND_LUA = `
local log = KEYS[1]
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local weight = tonumber(ARGV[4])
local horizon = ARGV[6]
local function out(x)
  if x == math.floor(x) and math.abs(x) < 9007199254740992 then return x end
  return string.format('%.17g', x)
end
local function weight_of(member) return tonumber(string.match(member, '^[^:]+')) end
local gone = redis.call('ZRANGEBYSCORE', log, 0, horizon)
local sum = redis.call('ZSCORE', log, '#')
local used = 0
if sum then used = -1 - tonumber(sum) end
if #gone > 0 then
  for i = 1, #gone do used = used - weight_of(gone[i]) end
  redis.call('ZREMRANGEBYSCORE', log, 0, horizon)
end
if used + weight > limit then
  -- Refused: keep the sum in step with the log just trimmed, then find when the oldest entries
  -- free enough units.
  if #gone > 0 then
    if used == 0 then redis.call('DEL', log) else redis.call('ZADD', log, -1 - used, '#') end
  end
  local rest = used
  local offset = 0
  while true do
    local chunk = redis.call('ZRANGEBYSCORE', log, 0, '+inf', 'WITHSCORES', 'LIMIT', offset, 100)
    if #chunk == 0 then break end
    for j = 1, #chunk, 2 do
      rest = rest - weight_of(chunk[j])
      if rest + weight <= limit then return {0, out(used), out(tonumber(chunk[j + 1]) + window)} end
    end
    offset = offset + 100
  end
  local newest = 0
  local last = redis.call('ZRANGE', log, -1, -1, 'WITHSCORES')
  if #last > 0 and last[1] ~= '#' then newest = tonumber(last[2]) end
  return {0, out(used), out(newest + window)}
end
used = used + weight
redis.call('ZADD', log, -1 - used, '#', ARGV[1], ARGV[5])
redis.call('PEXPIRE', log, ARGV[7])
return {1, out(used), ARGV[1]}
`;

const SPEND: LuaScript = luaScript(SPEND_LUA);

/** The outcome of one {@link RedisWeightedBudget.spend}, as the in-memory `WeightedBudget.spend` returns it. */
export interface BudgetSpend {
  /** False when the request did not fit: nothing was spent. */
  allowed: boolean;
  /** Units used in the window: after this request when allowed, before it when refused. */
  used: number;
  /** When refused, the time enough units leave the window for it to fit; `now` when allowed. */
  retryAt: number;
}

/** Where a {@link RedisWeightedBudget} keeps its keys. */
export interface RedisBudgetOptions {
  /** Prepended to every key (default `marketlens:rl:`). */
  prefix?: string;
}

/**
 * The sliding-window weighted budget of the in-memory `WeightedBudget`, shared by every instance
 * through Redis: a request of weight `w` at `now` is admitted when the units admitted for its key
 * in `(now - windowMs, now]`, by any instance, plus `w` stay within `limit`. Exact, not an
 * estimate; a refusal spends nothing. One atomic script per request, so concurrent requests on
 * any number of instances never admit more than the limit, in one round trip.
 *
 * Time is the caller's `now` (the server's injectable clock), not Redis `TIME`: the same clock
 * then drives the in-memory and the shared budget, tests step it at will, and `retryAt` is in the
 * clock the `retry-after` header is computed against. Instances' clocks differ by their NTP skew
 * (milliseconds), which moves a request's place in the window by as much.
 */
export class RedisWeightedBudget {
  readonly #redis: Redis;
  readonly #prefix: string;
  /** Makes members unique across instances; the sequence makes them unique within one. */
  readonly #instance = randomBytes(6).toString('base64url');
  readonly #ttl: string;
  #sequence = 0;

  constructor(
    redis: Redis,
    readonly limit: number,
    readonly windowMs: number,
    options: RedisBudgetOptions = {},
  ) {
    if (!(windowMs >= 1)) throw new RangeError(`windowMs must be at least 1 ms, not ${windowMs}`);
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'marketlens:rl:';
    this.#ttl = String(Math.ceil(windowMs));
  }

  /**
   * Spends `weight` (a positive number) from the budget of `key` at `now` (milliseconds, not
   * negative: the log's sum sits below time 0). Rejects with `SharedStateUnavailable` when Redis
   * cannot be reached or does not answer in time (then the request may or may not have been
   * counted: the caller refuses it with 503 either way).
   */
  async spend(key: string, weight: number, now: number): Promise<BudgetSpend> {
    if (!(weight > 0) || !Number.isFinite(weight)) throw new RangeError(`weight must be positive, not ${weight}`);
    if (!(now >= 0) || !Number.isFinite(now)) throw new RangeError(`now must be a time, not ${now}`);
    this.#sequence = (this.#sequence + 1) % Number.MAX_SAFE_INTEGER;
    const member = `${weight}:${this.#instance}:${this.#sequence.toString(36)}`;
    const reply = await runScript(
      this.#redis,
      SPEND,
      [this.#prefix + key],
      [now, this.windowMs, this.limit, weight, member, now - this.windowMs, this.#ttl],
    );
    const [admitted, used, retryAt] = reply as [number, number | string, number | string];
    return { allowed: admitted === 1, used: Number(used), retryAt: Number(retryAt) };
  }
}
