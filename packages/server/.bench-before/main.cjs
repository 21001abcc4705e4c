#!/usr/bin/env node
"use strict";
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// ../../node_modules/.pnpm/tsup@8.5.1_postcss@8.5.33_typescript@5.9.3_yaml@2.9.1/node_modules/tsup/assets/cjs_shims.js
var getImportMetaUrl = () => typeof document === "undefined" ? new URL(`file:${__filename}`).href : document.currentScript && document.currentScript.tagName.toUpperCase() === "SCRIPT" ? document.currentScript.src : new URL("main.js", document.baseURI).href;
var importMetaUrl = /* @__PURE__ */ getImportMetaUrl();

// src/errors/app-error.ts
var ERROR_CODES = {
  GeneralError: { code: 1, status: 500 },
  AnalysisTimeframeRestricted: { code: 1004, status: 402 },
  AnalysisHistoryDepthRestricted: { code: 1005, status: 402 },
  NotificationLimitExceeded: { code: "NotificationLimitExceeded", status: 402 },
  InvalidRequest: { code: "InvalidRequest", status: 400 },
  MalformedJson: { code: "MalformedJson", status: 400 },
  ApiKeyInQuery: { code: "ApiKeyInQuery", status: 400 },
  Unauthorized: { code: "Unauthorized", status: 401 },
  InvalidSession: { code: "InvalidSession", status: 401 },
  InvalidApiKey: { code: "InvalidApiKey", status: 401 },
  ApiKeyNotAccepted: { code: "ApiKeyNotAccepted", status: 401 },
  BearerNotAccepted: { code: "BearerNotAccepted", status: 401 },
  InvalidCredentials: { code: "InvalidCredentials", status: 401 },
  UnsupportedClientVersion: { code: "UnsupportedClientVersion", status: 403 },
  StablecoinNotAnalyzed: { code: "StablecoinNotAnalyzed", status: 400 },
  NotFound: { code: "NotFound", status: 404 },
  UnknownAsset: { code: "UnknownAsset", status: 404 },
  UnknownMarket: { code: "UnknownMarket", status: 404 },
  UnknownExchange: { code: "UnknownExchange", status: 404 },
  EmailAlreadyRegistered: { code: "EmailAlreadyRegistered", status: 422 },
  ApiKeyLimitExceeded: { code: "ApiKeyLimitExceeded", status: 422 },
  RateLimited: { code: "RateLimited", status: 429 },
  ApiKeyAllowanceExceeded: { code: "ApiKeyAllowanceExceeded", status: 429 },
  ServiceUnavailable: { code: "ServiceUnavailable", status: 503 }
};
var AppError = class extends Error {
  code;
  status;
  headers;
  constructor(name, message, headers = {}) {
    super(message);
    this.name = name;
    this.code = ERROR_CODES[name].code;
    this.status = ERROR_CODES[name].status;
    this.headers = headers;
  }
};
function fallbackErrorName(status) {
  switch (status) {
    case 400:
      return "InvalidRequest";
    case 401:
      return "Unauthorized";
    case 404:
      return "NotFound";
    case 429:
      return "RateLimited";
    case 503:
      return "ServiceUnavailable";
    default:
      return "GeneralError";
  }
}

// src/services/accounts.ts
var import_node_crypto3 = require("crypto");

// src/services/secrets.ts
var import_node_crypto = require("crypto");
var SCRYPT = { N: 16384, r: 8, p: 1, keylen: 64 };
function scryptAsync(password, salt, N, r, p, keylen) {
  return new Promise((resolve2, reject) => {
    (0, import_node_crypto.scrypt)(password, salt, keylen, { N, r, p, maxmem: 256 * N * r }, (err, key) => err ? reject(err) : resolve2(key));
  });
}
async function hashPassword(password) {
  const salt = (0, import_node_crypto.randomBytes)(16);
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keylen);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}
async function verifyPassword(password, stored) {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], "base64url");
  const expected = Buffer.from(parts[5], "base64url");
  const key = await scryptAsync(password, salt, N, r, p, expected.length);
  return (0, import_node_crypto.timingSafeEqual)(key, expected);
}
function newSecret(prefix) {
  return `${prefix}${(0, import_node_crypto.randomBytes)(32).toString("base64url")}`;
}
function secretHash(secret) {
  return (0, import_node_crypto.createHash)("sha256").update(secret).digest("hex");
}

// src/services/session-cache.ts
var SESSION_CACHE_TTL_MS = 1e3;
var SESSION_CACHE_MAX = 1e4;
var caches = /* @__PURE__ */ new Set();
function eachCache(fn) {
  for (const ref of caches) {
    const cache = ref.deref();
    if (cache) fn(cache);
    else caches.delete(ref);
  }
}
var SessionCache = class {
  constructor(ttlMs = SESSION_CACHE_TTL_MS, max = SESSION_CACHE_MAX) {
    this.ttlMs = ttlMs;
    this.max = max;
    caches.add(new WeakRef(this));
  }
  ttlMs;
  max;
  #entries = /* @__PURE__ */ new Map();
  /** Bumped by every invalidation; a resolution started before one is not stored. */
  #epoch = 0;
  get epoch() {
    return this.#epoch;
  }
  get size() {
    return this.#entries.size;
  }
  get(token, now) {
    const e = this.#entries.get(token);
    if (e === void 0) return void 0;
    this.#entries.delete(token);
    if (now >= e.until) return void 0;
    this.#entries.set(token, e);
    return e.caller;
  }
  /** Stores a resolution begun at `epoch` (see {@link epoch}) unless something was invalidated since. */
  set(token, caller, sessionExpiresAt, now, epoch) {
    if (epoch !== this.#epoch || this.ttlMs <= 0) return;
    let until = Math.min(now + this.ttlMs, sessionExpiresAt);
    if (caller.tier_expires_at !== null) until = Math.min(until, caller.tier_expires_at);
    this.#entries.delete(token);
    if (this.#entries.size >= this.max) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(token, { caller, until });
  }
  deleteToken(token) {
    this.#epoch++;
    this.#entries.delete(token);
  }
  deleteUser(userId) {
    this.#epoch++;
    for (const [token, e] of this.#entries) if (e.caller.user.id === userId) this.#entries.delete(token);
  }
  clear() {
    this.#epoch++;
    this.#entries.clear();
  }
};
function forgetSession(token) {
  eachCache((c) => c.deleteToken(token));
}

// src/services/tiers.ts
var import_node_crypto2 = require("crypto");
var RANK = { free: 0, pro: 1, elite: 2 };
var API_KEY_DAILY_ALLOWANCE = { free: 100, pro: 1e3, elite: 5e3 };
function isAtLeast(tier, floor) {
  return RANK[tier] >= RANK[floor];
}
async function tierStanding(storage, userId, baseTier, now) {
  let tier = baseTier;
  let grant = null;
  for (const g of await storage.grants.active(userId, now)) {
    if (RANK[g.tier] > RANK[tier] || grant && g.tier === tier && g.expires_at > grant.expires_at) {
      tier = g.tier;
      grant = g;
    }
  }
  return { tier, grant };
}

// src/services/accounts.ts
var DEFAULT_FAVORITES = ["bitcoin", "ethereum", "solana"];
var SESSION_TTL_MS = 30 * 864e5;
function normalizeEmail(email) {
  return email.trim().toLowerCase();
}
async function openSession(storage, user, now) {
  const token = newSecret("mls_");
  const expires_at = now + SESSION_TTL_MS;
  await storage.sessions.create({
    id: (0, import_node_crypto3.randomUUID)(),
    user_id: user.id,
    token_hash: secretHash(token),
    created_at: now,
    expires_at
  });
  return { user, token, expires_at };
}
async function signup(storage, email, password, now) {
  const user = {
    id: (0, import_node_crypto3.randomUUID)(),
    email: normalizeEmail(email),
    password_hash: await hashPassword(password),
    tier: "free",
    created_at: now
  };
  const created = await storage.users.create(user, DEFAULT_FAVORITES);
  if (!created) throw new AppError("EmailAlreadyRegistered", "An account with this email already exists");
  return openSession(storage, created, now);
}
async function login(storage, email, password, now) {
  const user = await storage.users.byEmail(normalizeEmail(email));
  const ok2 = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !ok2) throw new AppError("InvalidCredentials", "Email or password is wrong");
  return openSession(storage, user, now);
}
async function logout(storage, token) {
  await storage.sessions.deleteByTokenHash(secretHash(token));
  forgetSession(token);
}
async function liveSession(storage, token, now) {
  const session = await storage.sessions.byTokenHash(secretHash(token));
  if (!session || session.expires_at <= now) return null;
  const user = await storage.users.byId(session.user_id);
  return user ? { session, user } : null;
}
async function authenticated(storage, user, now) {
  const standing = await tierStanding(storage, user.id, user.tier, now);
  return { user, tier: standing.tier, tier_expires_at: standing.grant?.expires_at ?? null };
}
var DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

// src/services/api-keys.ts
var import_node_crypto4 = require("crypto");
var MAX_ACTIVE_API_KEYS = 10;
var DAY_MS = 864e5;
var iso = (t) => t === null ? null : new Date(t).toISOString();
function isKeyActive(k, now) {
  return k.revoked_at === null && (k.expires_at === null || k.expires_at > now);
}
function viewKey(k, now) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    created_at: new Date(k.created_at).toISOString(),
    expires_at: iso(k.expires_at),
    revoked_at: iso(k.revoked_at),
    last_used_at: iso(k.last_used_at),
    is_active: isKeyActive(k, now)
  };
}
async function createApiKey(storage, userId, opts, now) {
  const key = newSecret("mlk_");
  const record = {
    id: (0, import_node_crypto4.randomUUID)(),
    user_id: userId,
    name: opts.name ?? null,
    prefix: key.slice(0, 12),
    key_hash: secretHash(key),
    created_at: now,
    expires_at: opts.expires_in_days ? now + opts.expires_in_days * DAY_MS : null,
    revoked_at: null,
    last_used_at: null
  };
  if (!await storage.apiKeys.createIfBelow(record, MAX_ACTIVE_API_KEYS, now)) {
    throw new AppError("ApiKeyLimitExceeded", `At most ${MAX_ACTIVE_API_KEYS} active API keys per account`);
  }
  return { key, view: viewKey(record, now) };
}
async function listApiKeys(storage, userId, now) {
  return (await storage.apiKeys.listByUser(userId)).map((k) => viewKey(k, now));
}
async function revokeApiKey(storage, userId, id, now) {
  if (!await storage.apiKeys.revoke(userId, id, now))
    throw new AppError("NotFound", "No active API key with this id");
}
async function apiKeyRecord(storage, key, now) {
  const k = await storage.apiKeys.byHash(secretHash(key));
  return k && isKeyActive(k, now) ? k : null;
}
function utcDay(now) {
  return new Date(now).toISOString().slice(0, 10);
}
function nextUtcMidnight(now) {
  return Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
}
async function consumeAllowance(storage, userId, tier, now) {
  const limit = API_KEY_DAILY_ALLOWANCE[tier];
  const used = await storage.apiUsage.consume(userId, utcDay(now), limit);
  const reset = nextUtcMidnight(now);
  if (used === null) {
    throw new AppError("ApiKeyAllowanceExceeded", `Daily API-key allowance of ${limit} calls is used up`, {
      "retry-after": String(Math.ceil((reset - now) / 1e3))
    });
  }
  return {
    tier,
    daily_limit: limit,
    used_today: used,
    remaining_today: limit - used,
    resets_at: new Date(reset).toISOString()
  };
}
async function credits(storage, userId, tier, now) {
  const limit = API_KEY_DAILY_ALLOWANCE[tier];
  const used = Math.min(limit, await storage.apiUsage.used(userId, utcDay(now)));
  return {
    tier,
    daily_limit: limit,
    used_today: used,
    remaining_today: limit - used,
    resets_at: new Date(nextUtcMidnight(now)).toISOString()
  };
}

// src/admin.ts
var DEMO_EMAIL = "demo@marketlens.local";
async function seedDemo(storage, now = Date.now()) {
  const password = `demo-${Math.random().toString(36).slice(2)}-${now.toString(36)}`;
  let grant;
  try {
    grant = await signup(storage, DEMO_EMAIL, password, now);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== "EmailAlreadyRegistered") throw err;
    const user = await storage.users.byEmail(DEMO_EMAIL);
    if (!user) throw err;
    grant = await openSession(storage, user, now);
  }
  const keys = await storage.apiKeys.listByUser(grant.user.id);
  for (const k of keys)
    if (k.name === "demo" && k.revoked_at === null) await storage.apiKeys.revoke(grant.user.id, k.id, now);
  const { key } = await createApiKey(storage, grant.user.id, { name: "demo" }, now);
  return { email: DEMO_EMAIL, password, session_token: grant.token, api_key: key };
}

// src/app.ts
var import_zod_openapi11 = require("@hono/zod-openapi");

// src/docs/swagger.ts
var import_promises = require("fs/promises");
var import_node_module = require("module");
var import_node_path = require("path");
var ASSETS = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png"
};
var INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/docs/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
  });
});
`;
var PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>marketlens API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;
function swaggerDir() {
  const require2 = (0, import_node_module.createRequire)(importMetaUrl);
  return (0, import_node_path.dirname)(require2.resolve("swagger-ui-dist/package.json"));
}
function registerDocsUi(app) {
  const cache = /* @__PURE__ */ new Map();
  let dir = null;
  app.get("/docs", (c) => {
    c.header("cache-control", "no-cache");
    return c.html(PAGE);
  });
  app.get("/docs/", (c) => c.redirect("/docs", 301));
  app.get("/docs/assets/:file", async (c) => {
    const file = c.req.param("file");
    if (file === "init.js") {
      c.header("content-type", "text/javascript; charset=utf-8");
      return c.body(INIT);
    }
    const type = ASSETS[file];
    if (!type) return c.notFound();
    let data = cache.get(file);
    if (!data) {
      dir ??= swaggerDir();
      data = new Uint8Array(await (0, import_promises.readFile)((0, import_node_path.join)(dir, file)));
      cache.set(file, data);
    }
    c.header("content-type", type);
    c.header("cache-control", "public, max-age=86400");
    return c.body(data);
  });
}

// src/errors/handler.ts
var import_http_exception = require("hono/http-exception");

// src/envelope/envelope.ts
var import_zod_openapi = require("@hono/zod-openapi");
var SUCCESS_CODE = 0;
var AppCodeSchema = import_zod_openapi.z.union([import_zod_openapi.z.number().int(), import_zod_openapi.z.string()]).openapi("AppCode", { description: "Result code: 0 on success, a stable error code on failure." });
function envelopeOf(data, name) {
  const schema = import_zod_openapi.z.object({
    code: AppCodeSchema,
    success: import_zod_openapi.z.boolean(),
    data,
    message: import_zod_openapi.z.string().nullable().optional()
  });
  return name ? schema.openapi(name) : schema;
}
var ErrorResponseSchema = import_zod_openapi.z.object({
  success: import_zod_openapi.z.literal(false),
  code: AppCodeSchema,
  message: import_zod_openapi.z.string().openapi({ description: "English text for logs; never branch on it." })
}).openapi("ErrorResponse");
function ok(data, message = null) {
  return { code: SUCCESS_CODE, success: true, data, message };
}
function errorBody(code, message) {
  return { success: false, code, message };
}

// src/errors/handler.ts
var defaultLogger = (err, c) => {
  console.error(`[marketlens] ${c.req.method} ${c.req.path} failed:`, err);
};
function errorHandler(log = defaultLogger) {
  return (err, c) => {
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json(errorBody(err.code, err.message), err.status);
    }
    if (err instanceof import_http_exception.HTTPException) {
      const malformed = err.status === 400 && /json/i.test(err.message);
      const name = malformed ? "MalformedJson" : fallbackErrorName(err.status);
      const status = err.status >= 400 && err.status < 600 ? err.status : 400;
      return c.json(
        errorBody(ERROR_CODES[name].code, malformed ? "Malformed JSON in request body" : err.message || name),
        status
      );
    }
    log(err, c);
    return c.json(errorBody(ERROR_CODES.GeneralError.code, "Internal error"), 500);
  };
}
var notFoundHandler = (c) => c.json(errorBody(ERROR_CODES.NotFound.code, `No route for ${c.req.method} ${c.req.path}`), 404);

// src/feed/atom.ts
var esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
function renderAtom(notes, selfUrl) {
  const sorted = [...notes].sort((a, b) => b.updated.localeCompare(a.updated) || a.id.localeCompare(b.id));
  const updated = sorted[0]?.updated ?? "1970-01-01T00:00:00.000Z";
  const entries = sorted.map(
    (n2) => `  <entry>
    <id>urn:marketlens:release:${esc(n2.id)}</id>
    <title>${esc(`${n2.package} ${n2.version}`)}</title>
    <updated>${esc(n2.updated)}</updated>
    <category term="${esc(n2.package)}"/>
    <content type="html">${esc(`<ul>${n2.changes.map((c) => `<li>${esc(c)}</li>`).join("")}</ul>`)}</content>
  </entry>`
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>urn:marketlens:releases</id>
  <title>marketlens releases</title>
  <updated>${esc(updated)}</updated>
  <link rel="self" type="application/atom+xml" href="${esc(selfUrl)}"/>
  <author><name>marketlens</name></author>
${entries.join("\n")}
</feed>
`;
}

// src/feed/release-notes.json
var release_notes_default = [
  {
    id: "@marketlens/exchanges@unreleased:exchanges-first",
    package: "@marketlens/exchanges",
    version: "unreleased (minor)",
    updated: "2026-11-22T00:14:40.000Z",
    changes: [
      "First release: MarketData and AccountData ports, the deterministic simulated venue with demo accounts, streaming candle-file import (Yahoo, Binance klines, generic CSV, ccxt JSON), the asset universe with native-instrument mapping."
    ]
  },
  {
    id: "@marketlens/core@unreleased:core-portfolio",
    package: "@marketlens/core",
    version: "unreleased (minor)",
    updated: "2026-11-22T00:00:03.000Z",
    changes: [
      "Portfolio arithmetic (positions, balances, orders from fills, totals with unpriced rows, exact in decimal) and the position assessment against the published analysis."
    ]
  },
  {
    id: "@marketlens/core@unreleased:core-indicators-and-analysis",
    package: "@marketlens/core",
    version: "unreleased (minor)",
    updated: "2026-11-21T23:48:59.000Z",
    changes: [
      "First release of the indicator engine (40 indicators, batch and streaming, verified against TA-Lib) and the analysis engine: levels, trade plans and their simulation, signal and technical rating, Fear & Greed, regime, screeners and the localized overview."
    ]
  }
];

// src/feed/route.ts
var RELEASE_FEED_PATH = "/releases.atom";
function registerReleaseFeed(app) {
  app.get(RELEASE_FEED_PATH, (c) => {
    c.header("content-type", "application/atom+xml; charset=utf-8");
    c.header("cache-control", "public, max-age=300");
    return c.body(renderAtom(release_notes_default, new URL(RELEASE_FEED_PATH, c.req.url).href));
  });
}

// src/middleware/client-ip/index.ts
function normalize(ip) {
  return ip.startsWith("::ffff:") ? ip.slice(7) : ip;
}
function resolveClientIp(socketIp, forwardedFor, trusted) {
  if (!forwardedFor || trusted.length === 0 || !trusted.includes(socketIp)) return socketIp;
  const hops = forwardedFor.split(",").map((h) => normalize(h.trim())).filter((h) => h.length > 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted.includes(hops[i])) return hops[i];
  }
  return socketIp;
}
function clientIp() {
  return (c, next) => {
    const env = c.env;
    const socketIp = normalize(env?.incoming?.socket?.remoteAddress ?? "unknown");
    const trusted = c.get("deps").config.trustedProxies;
    c.set(
      "clientIp",
      trusted.length === 0 ? socketIp : resolveClientIp(socketIp, c.req.header("x-forwarded-for"), trusted)
    );
    return next();
  };
}

// src/middleware/client-version/index.ts
var H1_FREE_BELOW = [3, 9, 30];
var LEGACY_SHAPES_BELOW = [3, 9, 26];
var MOBILE = /* @__PURE__ */ new Set(["ios", "android"]);
function parseVersion(text) {
  const m = /^v?(\d{1,6})\.(\d{1,6})(?:\.(\d{1,6}))?(?:[-+].*)?$/.exec(text?.trim() ?? "");
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}
function compareVersions(a, b) {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}
var NO_CLIENT_INFO = Object.freeze({
  platform: null,
  version: null,
  mobile: false,
  h1Free: false,
  legacyShapes: false
});
function clientInfo(platformHeader, versionHeader) {
  if (platformHeader === void 0 && versionHeader === void 0) return NO_CLIENT_INFO;
  const platform = platformHeader?.trim().toLowerCase() || null;
  const version = parseVersion(versionHeader);
  const mobile = platform !== null && MOBILE.has(platform);
  return {
    platform,
    version,
    mobile,
    // An unknown version is treated as eligible (the contract says so).
    h1Free: mobile && (version === null || compareVersions(version, H1_FREE_BELOW) < 0),
    legacyShapes: mobile && version !== null && compareVersions(version, LEGACY_SHAPES_BELOW) < 0
  };
}
function clientVersion() {
  let minText;
  let min = null;
  return async (c, next) => {
    const info = clientInfo(c.req.header("x-platform"), c.req.header("x-app-version"));
    c.set("client", info);
    if (info.mobile && info.version) {
      const deps = c.get("deps");
      const { minClientVersion } = deps.config;
      if (minText !== minClientVersion) {
        minText = minClientVersion;
        min = parseVersion(minClientVersion);
      }
      if (min && compareVersions(info.version, min) < 0) {
        const key = c.req.header("x-api-key");
        const valid = key ? await apiKeyRecord(deps.storage, key, deps.now()) : null;
        if (!valid) {
          throw new AppError(
            "UnsupportedClientVersion",
            `App version ${info.version.join(".")} is no longer supported; update to ${minClientVersion} or later`
          );
        }
      }
    }
    return next();
  };
}

// src/middleware/rate-limit/index.ts
var import_route = require("hono/route");

// src/middleware/rate-limit/weights.ts
var RATE_LIMIT_WEIGHTS = {
  "POST /v1/auth/signup": 20,
  "POST /v1/auth/login": 20,
  "POST /v1/auth/logout": 1,
  "POST /v1/users/api_keys": 5,
  "GET /v1/users/api_keys": 1,
  "DELETE /v1/users/api_keys/:key_id": 1,
  "GET /v1/users/api_keys/credits": 1,
  "GET /v2/config": 1,
  "GET /docs": 1,
  "GET /docs/openapi.json": 2,
  "GET /releases.atom": 1
};
var DEFAULT_WEIGHT = 1;
function weightOf(method, path) {
  return RATE_LIMIT_WEIGHTS[`${method} ${path}`] ?? DEFAULT_WEIGHT;
}

// src/middleware/rate-limit/index.ts
var WeightedBudget = class {
  constructor(limit, windowMs) {
    this.limit = limit;
    this.windowMs = windowMs;
  }
  limit;
  windowMs;
  #windows = /* @__PURE__ */ new Map();
  #lastSweep = 0;
  /** Spends `weight`; returns the state after, with `allowed` false (and nothing spent) if over. */
  spend(key, weight, now) {
    if (now - this.#lastSweep >= this.windowMs) this.#sweep(now);
    let w = this.#windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, used: 0 };
      this.#windows.set(key, w);
    }
    const allowed = w.used + weight <= this.limit;
    if (allowed) w.used += weight;
    return { allowed, used: w.used, resetAt: w.start + this.windowMs };
  }
  #sweep(now) {
    this.#lastSweep = now;
    for (const [k, w] of this.#windows) if (now - w.start >= this.windowMs) this.#windows.delete(k);
  }
};
function routeWeight(c, memo) {
  const routes = (0, import_route.matchedRoutes)(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const r = routes[i];
    if (r.method === "ALL") continue;
    let w = memo.get(r);
    if (w === void 0) {
      w = weightOf(r.method, r.path);
      memo.set(r, w);
    }
    return w;
  }
  return weightOf(c.req.method, c.req.path);
}
function rateLimit() {
  let budget = null;
  let limitText = "";
  let windowText = "";
  const weights = /* @__PURE__ */ new WeakMap();
  return (c, next) => {
    const deps = c.get("deps");
    const { limit, windowMs } = deps.config.rateLimit;
    if (!budget || budget.limit !== limit || budget.windowMs !== windowMs) {
      budget = new WeightedBudget(limit, windowMs);
      limitText = String(limit);
      windowText = String(Math.round(windowMs / 1e3));
    }
    const now = deps.now();
    const r = budget.spend(c.get("clientIp"), routeWeight(c, weights), now);
    const remaining = String(Math.max(0, limit - r.used));
    const used = String(r.used);
    const out = c.env?.outgoing;
    if (out && !out.headersSent) {
      out.setHeader("x-ratelimit-limit", limitText);
      out.setHeader("x-ratelimit-remaining", remaining);
      out.setHeader("x-ratelimit-used", used);
      out.setHeader("x-ratelimit-window", windowText);
    } else {
      c.header("x-ratelimit-limit", limitText);
      c.header("x-ratelimit-remaining", remaining);
      c.header("x-ratelimit-used", used);
      c.header("x-ratelimit-window", windowText);
    }
    if (!r.allowed) {
      throw new AppError("RateLimited", `Request budget of ${limit} units per ${windowMs / 1e3} s is spent`, {
        "retry-after": String(Math.max(1, Math.ceil((r.resetAt - now) / 1e3)))
      });
    }
    return next();
  };
}

// src/routes/v1/api-keys.ts
var import_zod_openapi3 = require("@hono/zod-openapi");

// src/middleware/auth/index.ts
var SESSION_ONLY = { session: true, apiKey: false };
var SESSION_OR_API_KEY = { session: true, apiKey: true };
var PUBLIC = { session: false, apiKey: false, anonymous: true };
var OPTIONAL_SESSION_OR_API_KEY = { session: true, apiKey: true, anonymous: true };
function securityOf(spec) {
  const s = [];
  if (spec.session) s.push({ session: [] });
  if (spec.apiKey) s.push({ api_key: [] });
  if (spec.anonymous && s.length > 0) s.push({});
  return s;
}
async function withTier(storage, user, now, kind, keyId) {
  try {
    const a = await authenticated(storage, user, now);
    return { kind, user, tier: a.tier, tier_expires_at: a.tier_expires_at, api_key_id: keyId };
  } catch {
    return { kind, user, tier: null, tier_expires_at: null, api_key_id: keyId };
  }
}
var ANONYMOUS = Object.freeze({ kind: "anonymous" });
async function sessionCaller(deps, token, now) {
  const cache = deps.sessionCache;
  const hit = cache?.get(token, now);
  if (hit) return hit;
  const epoch = cache?.epoch ?? 0;
  const live = await liveSession(deps.storage, token, now);
  if (!live) throw new AppError("InvalidSession", "Session token is invalid or expired");
  const caller = await withTier(deps.storage, live.user, now, "session", null);
  if (cache && caller.tier !== null) cache.set(token, caller, live.session.expires_at, now, epoch);
  return caller;
}
function authorize(spec) {
  const { session, apiKey, anonymous } = spec;
  return async (c, next) => {
    if (c.req.header("authorization")) {
      throw new AppError("BearerNotAccepted", "Bearer tokens are accepted on /mcp only");
    }
    if (!session && !apiKey) {
      c.set("caller", ANONYMOUS);
      return next();
    }
    const token = c.req.header("x-session-token");
    const key = token !== void 0 && session ? void 0 : c.req.header("x-api-key");
    if (token !== void 0 && session) {
      const deps = c.get("deps");
      c.set("caller", await sessionCaller(deps, token, deps.now()));
    } else if (key !== void 0) {
      const { storage, now: clock } = c.get("deps");
      const now = clock();
      if (!apiKey) throw new AppError("ApiKeyNotAccepted", "API keys do not reach this operation; use a session");
      const record = await apiKeyRecord(storage, key, now);
      const user = record ? await storage.users.byId(record.user_id) : null;
      if (!record || !user) throw new AppError("InvalidApiKey", "API key is invalid, expired or revoked");
      const caller = await withTier(storage, user, now, "api_key", record.id);
      await consumeAllowance(storage, user.id, caller.tier ?? "free", now);
      await storage.apiKeys.touch(record.id, now);
      c.set("caller", caller);
    } else if (token !== void 0) {
      throw new AppError("Unauthorized", "This operation does not accept a session");
    } else if (anonymous) {
      c.set("caller", ANONYMOUS);
    } else {
      throw new AppError("Unauthorized", "A valid credential is required");
    }
    await next();
  };
}
function requireUser(caller) {
  if (caller.kind === "anonymous") throw new AppError("Unauthorized", "A valid credential is required");
  return caller;
}

// src/storage/types.ts
var TIERS = ["free", "pro", "elite"];

// src/routes/operation.ts
var import_zod_openapi2 = require("@hono/zod-openapi");
var DESCRIPTIONS = {
  400: "Invalid request (bad parameters, malformed JSON, API key in the query string)",
  401: "Missing or invalid credential, or a credential this operation does not accept",
  402: "Paid feature",
  403: "Forbidden (e.g. unsupported client version)",
  404: "Not found",
  410: "Gone",
  422: "Unprocessable",
  429: "Request budget or API-key allowance exceeded; see retry-after",
  500: "Internal error",
  503: "Service unavailable"
};
var error = (status) => ({
  description: DESCRIPTIONS[status],
  content: { "application/json": { schema: ErrorResponseSchema } },
  ...status === 429 ? {
    headers: {
      "retry-after": { description: "Seconds until the budget resets", schema: { type: "integer" } }
    }
  } : {}
});
function operation(auth, route, errors = []) {
  const statuses = /* @__PURE__ */ new Set([400, 403, 429, 500, ...errors]);
  if (auth.session || auth.apiKey) statuses.add(401);
  const errorResponses = {};
  for (const s of [...statuses].sort()) errorResponses[String(s)] = error(s);
  return (0, import_zod_openapi2.createRoute)({
    ...route,
    security: securityOf(auth),
    middleware: authorize(auth),
    responses: { ...errorResponses, ...route.responses }
  });
}

// src/routes/v1/api-keys.ts
var ApiKeySchema = import_zod_openapi3.z.object({
  id: import_zod_openapi3.z.uuid(),
  name: import_zod_openapi3.z.string().nullable(),
  prefix: import_zod_openapi3.z.string().openapi({ description: "First characters of the key, to tell keys apart" }),
  created_at: import_zod_openapi3.z.iso.datetime(),
  expires_at: import_zod_openapi3.z.iso.datetime().nullable(),
  revoked_at: import_zod_openapi3.z.iso.datetime().nullable(),
  last_used_at: import_zod_openapi3.z.iso.datetime().nullable(),
  is_active: import_zod_openapi3.z.boolean().openapi({ description: "false once expired or revoked" })
}).openapi("ApiKey");
var CreatedApiKeySchema = import_zod_openapi3.z.object({
  key: import_zod_openapi3.z.string().openapi({ description: "Send as `x-api-key`. Shown only once; stored hashed." }),
  api_key: ApiKeySchema
}).openapi("CreatedApiKey");
var CreateApiKeyBody = import_zod_openapi3.z.object({
  name: import_zod_openapi3.z.string().min(1).max(64).optional(),
  expires_in_days: import_zod_openapi3.z.number().int().min(1).max(365).optional().openapi({ description: "Omit for a key that does not expire" })
}).openapi("CreateApiKey");
var CreditsSchema = import_zod_openapi3.z.object({
  tier: import_zod_openapi3.z.enum(TIERS),
  daily_limit: import_zod_openapi3.z.number().int(),
  used_today: import_zod_openapi3.z.number().int(),
  remaining_today: import_zod_openapi3.z.number().int(),
  resets_at: import_zod_openapi3.z.iso.datetime().openapi({ description: "Next 00:00 UTC" })
}).openapi("ApiKeyCredits");
var json = (schema, description) => ({
  description,
  content: { "application/json": { schema } }
});
var createApiKeyRoute = operation(
  SESSION_ONLY,
  {
    method: "post",
    path: "/v1/users/api_keys",
    operationId: "createApiKey",
    tags: ["API keys"],
    summary: "Create an API key",
    description: "At most 10 active keys per account.",
    request: { body: { content: { "application/json": { schema: CreateApiKeyBody } }, required: false } },
    responses: { 200: json(envelopeOf(CreatedApiKeySchema), "Key created") }
  },
  [422]
);
var listApiKeysRoute = operation(SESSION_ONLY, {
  method: "get",
  path: "/v1/users/api_keys",
  operationId: "listApiKeys",
  tags: ["API keys"],
  summary: "List API keys, revoked and expired included",
  responses: { 200: json(envelopeOf(import_zod_openapi3.z.array(ApiKeySchema)), "Keys, newest first") }
});
var deleteApiKeyRoute = operation(
  SESSION_ONLY,
  {
    method: "delete",
    path: "/v1/users/api_keys/{key_id}",
    operationId: "deleteApiKey",
    tags: ["API keys"],
    summary: "Revoke an API key at once",
    description: "The key stops working immediately; its record is kept for audit.",
    request: { params: import_zod_openapi3.z.object({ key_id: import_zod_openapi3.z.uuid().openapi({ param: { name: "key_id", in: "path" } }) }) },
    responses: { 200: json(envelopeOf(import_zod_openapi3.z.null()), "Key revoked") }
  },
  [404]
);
var creditsRoute = operation(SESSION_ONLY, {
  method: "get",
  path: "/v1/users/api_keys/credits",
  operationId: "getApiKeyCredits",
  tags: ["API keys"],
  summary: "Live daily API-key allowance",
  responses: { 200: json(envelopeOf(CreditsSchema), "Allowance figures") }
});
function registerApiKeyRoutes(app) {
  app.openapi(creditsRoute, async (c) => {
    const caller = requireUser(c.get("caller"));
    return c.json(
      ok(await credits(c.get("deps").storage, caller.user.id, caller.tier ?? "free", c.get("deps").now())),
      200
    );
  });
  app.openapi(createApiKeyRoute, async (c) => {
    const caller = requireUser(c.get("caller"));
    const body2 = c.req.valid("json") ?? {};
    const { key, view } = await createApiKey(c.get("deps").storage, caller.user.id, body2, c.get("deps").now());
    c.header("cache-control", "no-store");
    return c.json(ok({ key, api_key: view }), 200);
  });
  app.openapi(listApiKeysRoute, async (c) => {
    const caller = requireUser(c.get("caller"));
    return c.json(ok(await listApiKeys(c.get("deps").storage, caller.user.id, c.get("deps").now())), 200);
  });
  app.openapi(deleteApiKeyRoute, async (c) => {
    const caller = requireUser(c.get("caller"));
    await revokeApiKey(c.get("deps").storage, caller.user.id, c.req.valid("param").key_id, c.get("deps").now());
    return c.json(ok(null), 200);
  });
}

// src/routes/v1/assets.ts
var import_zod_openapi5 = require("@hono/zod-openapi");

// src/services/analysis.ts
var import_core2 = require("@marketlens/core");
var import_exchanges3 = require("@marketlens/exchanges");

// src/errors/venue-error.ts
var import_exchanges = require("@marketlens/exchanges");
function fromVenueError(err) {
  if (!(err instanceof import_exchanges.VenueError)) return err;
  switch (err.code) {
    case "unknown_asset":
      return new AppError("UnknownAsset", err.message);
    case "unknown_market":
      return new AppError("UnknownMarket", err.message);
    case "bad_request":
      return new AppError("InvalidRequest", err.message);
    default:
      if (!err.retryable) return err;
      return new AppError(
        "ServiceUnavailable",
        "Market data is unavailable right now; retry later",
        err.retryAfterMs === void 0 ? {} : { "retry-after": String(Math.ceil(err.retryAfterMs / 1e3)) }
      );
  }
}
async function venueCall(read) {
  try {
    return await read();
  } catch (err) {
    throw fromVenueError(err);
  }
}

// src/services/catalog.ts
var TIMEFRAMES = ["m5", "m15", "m30", "h1", "h4", "d1", "w1"];
var DEFAULT_TIMEFRAME = "d1";
var FREE_TIMEFRAMES = ["d1"];
var CHART_DEPTH = { free: 500, pro: 5e3 };
var SIGNAL_TIMEFRAMES = ["h1", "m15", "d1"];
var fold = (pairs) => pairs.map(([value, evaluates_as]) => ({ value, evaluates_as }));
var WINDOW_FOLD = fold([
  ["m5", "m15"],
  ["m15", "m15"],
  ["m30", "m15"],
  ["h1", "h1"],
  ["h4", "h1"],
  ["d1", "d1"],
  ["w1", "d1"]
]);
var CHANGE_FOLD = fold([
  ["m5", "1h"],
  ["m15", "1h"],
  ["m30", "1h"],
  ["h1", "1h"],
  ["h4", "24h"],
  ["h12", "24h"],
  ["d1", "24h"],
  ["d3", "7d"],
  ["w1", "7d"]
]);
var ANALYSIS_WINDOWS = fold([
  ["m15", "m15"],
  ["h1", "h1"],
  ["d1", "d1"]
]);
var ALERT_KINDS = [
  { kind: "price", timeframes: [] },
  { kind: "zone", timeframes: ANALYSIS_WINDOWS },
  { kind: "breakout", timeframes: ANALYSIS_WINDOWS },
  { kind: "rsi", timeframes: WINDOW_FOLD },
  { kind: "smart_zone", timeframes: WINDOW_FOLD },
  { kind: "percent_change", timeframes: CHANGE_FOLD }
];

// src/services/config-document.ts
var import_core = require("@marketlens/core");
function timeframeNeedsPro(timeframe, client) {
  if (FREE_TIMEFRAMES.includes(timeframe)) return false;
  return !(timeframe === "h1" && client.h1Free);
}
function callerBlock(caller) {
  if (caller.kind === "anonymous") {
    return {
      state: "anonymous",
      via: null,
      tier: "free",
      is_pro: false,
      is_elite: false,
      tier_expires_at: null
    };
  }
  if (caller.tier === null) {
    return {
      state: "unavailable",
      via: caller.kind,
      tier: null,
      is_pro: null,
      is_elite: null,
      tier_expires_at: null
    };
  }
  return {
    state: "authenticated",
    via: caller.kind,
    tier: caller.tier,
    is_pro: isAtLeast(caller.tier, "pro"),
    is_elite: caller.tier === "elite",
    tier_expires_at: caller.tier_expires_at === null ? null : new Date(caller.tier_expires_at).toISOString()
  };
}
function configDocument(caller, client) {
  return {
    analysis: {
      default_timeframe: DEFAULT_TIMEFRAME,
      timeframes: TIMEFRAMES.map((value) => ({ value, needs_pro: timeframeNeedsPro(value, client) }))
    },
    chart_depth: { free: CHART_DEPTH.free, pro: CHART_DEPTH.pro },
    signals: {
      timeframes: [...SIGNAL_TIMEFRAMES],
      controls: import_core.SIGNAL_CONTROLS.map((s) => ({
        name: s.name,
        type: s.type,
        values: s.values ? [...s.values] : null,
        min: s.min ?? null,
        max: s.max ?? null,
        default: s.default ?? null,
        description: s.description
      })),
      sorts: [...import_core.SIGNAL_SORTS]
    },
    alerts: { kinds: ALERT_KINDS.map((k) => ({ kind: k.kind, timeframes: k.timeframes.map((t) => ({ ...t })) })) },
    caller: callerBlock(caller)
  };
}

// src/services/lru.ts
var Lru = class {
  constructor(capacity, maxAgeMs = Number.POSITIVE_INFINITY) {
    this.capacity = capacity;
    this.maxAgeMs = maxAgeMs;
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be >= 1, got ${capacity}`);
  }
  capacity;
  maxAgeMs;
  #entries = /* @__PURE__ */ new Map();
  get size() {
    return this.#entries.size;
  }
  /** The entry and when it was stored, or undefined when absent or too old at `now`. */
  entry(key, now) {
    const e = this.#entries.get(key);
    if (e === void 0) return void 0;
    this.#entries.delete(key);
    if (now - e.at >= this.maxAgeMs || now < e.at) return void 0;
    this.#entries.set(key, e);
    return e;
  }
  get(key, now) {
    return this.entry(key, now)?.value;
  }
  set(key, value, now) {
    this.#entries.delete(key);
    this.#entries.set(key, { value, at: now });
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }
};

// src/services/market.ts
var import_exchanges2 = require("@marketlens/exchanges");
var defaultVenue;
function marketOf(deps) {
  if (deps.market) return deps.market;
  defaultVenue ??= (0, import_exchanges2.createSimulatedVenue)();
  return defaultVenue;
}
function universeOf(market) {
  const own = market.universe;
  return own ?? import_exchanges2.defaultUniverse;
}
var SNAPSHOT_TTL_MS = 6e4;
var snapshots = /* @__PURE__ */ new WeakMap();
function perMarket(store, market, create) {
  let v = store.get(market);
  if (v === void 0) {
    v = create();
    store.set(market, v);
  }
  return v;
}
async function readSnapshot(market, now) {
  const perAsset = await Promise.all(
    universeOf(market).assets.map(async (asset) => {
      const markets = await market.markets(asset.id).catch(() => []);
      const quotes = await Promise.all(
        markets.map(async (m) => {
          try {
            const request = { asset_id: asset.id, pair: m.pair };
            const ticker = await market.ticker(request);
            const funding = m.market_type === "derivatives" ? await market.fundingRate(request) : null;
            return { market: m, ticker, funding };
          } catch {
            return null;
          }
        })
      );
      return [asset.id, quotes.filter((q) => q !== null)];
    })
  );
  const byAsset = new Map(perAsset);
  return { venue: market.venue, at: now, quotes: perAsset.flatMap(([, q]) => q), byAsset };
}
function venueSnapshot(deps) {
  const market = marketOf(deps);
  const now = deps.now();
  const held = snapshots.get(market);
  if (held && now >= held.at && now - held.at < SNAPSHOT_TTL_MS) return held.value;
  const value = readSnapshot(market, now);
  const entry = { at: now, value };
  snapshots.set(market, entry);
  value.catch(() => {
    if (snapshots.get(market) === entry) snapshots.delete(market);
  });
  return value;
}
function primaryQuote(quotes) {
  if (!quotes || quotes.length === 0) return null;
  return quotes.find((q) => q.market.market_type === "spot") ?? quotes[0] ?? null;
}
function iso2(ms) {
  return new Date(ms).toISOString();
}
function isoOrNull(ms) {
  return ms === null ? null : iso2(ms);
}

// src/services/analysis.ts
var ANALYSIS_CACHE_SIZE = 256;
var ANALYSIS_CACHE_MS = 6e4;
var SIGNAL_CACHE_MS = 36e5;
var caches2 = /* @__PURE__ */ new WeakMap();
var cachesOf = (market) => perMarket(caches2, market, () => ({
  analyses: new Lru(ANALYSIS_CACHE_SIZE, ANALYSIS_CACHE_MS),
  signals: new Lru(ANALYSIS_CACHE_SIZE, SIGNAL_CACHE_MS)
}));
function requireAsset(deps, assetId) {
  const asset = universeOf(marketOf(deps)).get(assetId);
  if (!asset) throw new AppError("UnknownAsset", `Unknown asset '${assetId}'`);
  return asset;
}
function assetRef(a) {
  return { id: a.id, symbol: a.symbol, name: a.name, icon: a.icon, asset_class: a.asset_class };
}
function tierOf(caller) {
  return caller.kind === "anonymous" ? "free" : caller.tier ?? "free";
}
function checkAnalysisAccess(asset, request, caller, client) {
  if (isAtLeast(tierOf(caller), "pro")) return;
  if (asset.asset_class !== "external" && timeframeNeedsPro(request.timeframe, client)) {
    throw new AppError("AnalysisTimeframeRestricted", `Timeframe ${request.timeframe} requires Pro`);
  }
  if (request.limit > CHART_DEPTH.free) {
    throw new AppError(
      "AnalysisHistoryDepthRestricted",
      `Windows deeper than ${CHART_DEPTH.free} candles require Pro (asked ${request.limit})`
    );
  }
}
function cacheKey(r, lastOpen) {
  return [r.asset_id, r.timeframe, r.market_type ?? "", r.pair ?? "", r.limit, lastOpen].join("|");
}
async function compute(deps, asset, r) {
  const market = marketOf(deps);
  const series = await venueCall(
    () => market.candles({
      asset_id: r.asset_id,
      timeframe: r.timeframe,
      limit: r.limit,
      ...r.market_type ? { market_type: r.market_type } : {},
      ...r.pair ? { pair: r.pair } : {}
    })
  );
  const funding = await market.fundingRate({ asset_id: r.asset_id, ...series.market_type === "derivatives" ? { pair: series.pair } : {} }).catch(() => null);
  let analysis;
  try {
    analysis = (0, import_core2.analyze)(series.candles, { market: { funding: funding?.rate ?? null } });
  } catch (err) {
    if (err instanceof import_core2.InputError) {
      throw new AppError("UnknownMarket", `Not enough market data to analyse ${r.asset_id} on ${r.timeframe}`);
    }
    throw err;
  }
  return {
    asset: assetRef(asset),
    timeframe: r.timeframe,
    market_type: series.market_type,
    pair: series.pair,
    venue: series.venue,
    analysis,
    computed_at: deps.now()
  };
}
async function analysisOf(deps, asset, r) {
  if (asset.is_stablecoin) {
    throw new AppError("StablecoinNotAnalyzed", `${asset.id} is a stablecoin; it is not analysed`);
  }
  const now = deps.now();
  const { analyses } = cachesOf(marketOf(deps));
  const key = cacheKey(r, (0, import_exchanges3.candleOpenTime)(r.timeframe, now));
  const hit = analyses.get(key, now);
  if (hit) return hit;
  const result = await compute(deps, asset, r);
  analyses.set(key, result, now);
  return result;
}
function analysisWire(result) {
  const a = result.analysis;
  const zone = (z10) => ({ ...z10, last_touch_time: iso2(z10.last_touch_time) });
  const nearest = (z10) => z10 && { ...z10, last_touch_time: iso2(z10.last_touch_time) };
  return {
    asset: result.asset,
    timeframe: result.timeframe,
    market_type: result.market_type,
    pair: result.pair,
    venue: result.venue,
    as_of: iso2(a.as_of),
    as_of_index: a.as_of_index,
    indicators: a.indicators,
    levels: {
      ...a.levels,
      as_of_time: iso2(a.levels.as_of_time),
      zones: a.levels.zones.map(zone),
      nearest_support: nearest(a.levels.nearest_support),
      nearest_resistance: nearest(a.levels.nearest_resistance)
    },
    volume_profile: a.volume_profile,
    zone: { ...a.zone, published_time: iso2(a.zone.published_time) },
    signal: a.signal,
    technical_rating: a.technical_rating,
    fear_greed: a.fear_greed,
    regime: {
      ...a.regime,
      since: isoOrNull(a.regime.since),
      transition: a.regime.transition && { ...a.regime.transition, time: iso2(a.regime.transition.time) }
    },
    patterns: a.patterns
  };
}
async function signalOf(deps, asset, r) {
  const now = deps.now();
  const { signals } = cachesOf(marketOf(deps));
  const key = cacheKey(r, 0);
  let entry = signals.entry(key, now);
  if (!entry) {
    signals.set(key, await analysisOf(deps, asset, r), now);
    entry = signals.entry(key, now);
  }
  if (!entry) throw new Error("signal cache refused a fresh entry");
  const { value, at } = entry;
  const age = Math.floor((now - at) / 1e3);
  return {
    asset: value.asset,
    timeframe: value.timeframe,
    market_type: value.market_type,
    pair: value.pair,
    venue: value.venue,
    as_of: iso2(value.analysis.as_of),
    signal: value.analysis.signal,
    cached_at: iso2(at),
    age,
    max_age: Math.max(0, SIGNAL_CACHE_MS / 1e3 - age)
  };
}
async function overviewOf(deps, asset, r, locale) {
  const result = await analysisOf(deps, asset, r);
  const facts = (0, import_core2.overviewFacts)(result.analysis);
  const resolved = (0, import_core2.resolveLocale)(locale);
  return {
    asset: result.asset,
    timeframe: result.timeframe,
    market_type: result.market_type,
    pair: result.pair,
    venue: result.venue,
    as_of: iso2(result.analysis.as_of),
    locale: resolved,
    text: (0, import_core2.renderOverview)(facts, resolved),
    facts
  };
}
function tickerWire(t) {
  return {
    venue: t.venue,
    pair: t.pair,
    asset_id: t.asset_id,
    market_type: t.market_type,
    last: t.last,
    bid: t.bid,
    ask: t.ask,
    change_1h_pct: t.change_1h_pct,
    change_24h_pct: t.change_24h_pct,
    change_7d_pct: t.change_7d_pct,
    volume_24h: t.volume_24h,
    quote_volume_usd: t.quote_volume_usd,
    time: iso2(t.time)
  };
}
function fundingWire(funding) {
  return {
    funding_rate: funding?.rate ?? null,
    funding_interval_hours: funding?.interval_hours ?? null,
    next_funding_time: isoOrNull(funding?.next_funding_time ?? null),
    mark_price: funding?.mark_price ?? null,
    index_price: funding?.index_price ?? null
  };
}
async function marketsOf(deps, asset, marketType) {
  const market = marketOf(deps);
  const markets = await venueCall(() => market.markets(asset.id));
  const rows = await Promise.all(
    markets.filter((m) => marketType === void 0 || m.market_type === marketType).map(async (m) => {
      const request = { asset_id: asset.id, pair: m.pair };
      const ticker = await venueCall(() => market.ticker(request));
      const funding = m.market_type === "derivatives" ? await market.fundingRate(request).catch(() => null) : null;
      return { ...tickerWire(ticker), base: m.base, quote: m.quote, settle: m.settle, ...fundingWire(funding) };
    })
  );
  return { asset: assetRef(asset), venue: market.venue, markets: rows };
}

// src/services/assets.ts
var ASSET_CLASS_FILTERS = ["coins", "stocks", "fx", "all"];
var ASSET_SORTS = ["volume", "price", "change_1h", "change_24h", "change_7d", "name"];
function rowOf(asset, snapshot) {
  const q = primaryQuote(snapshot.byAsset.get(asset.id));
  return {
    id: asset.id,
    symbol: asset.symbol,
    name: asset.name,
    icon: asset.icon,
    asset_class: asset.asset_class,
    is_stablecoin: asset.is_stablecoin,
    price: q?.ticker.last ?? null,
    change_1h_pct: q?.ticker.change_1h_pct ?? null,
    change_24h_pct: q?.ticker.change_24h_pct ?? null,
    change_7d_pct: q?.ticker.change_7d_pct ?? null,
    volume_24h_usd: q?.ticker.quote_volume_usd ?? null,
    market_type: q?.market.market_type ?? null,
    pair: q?.market.pair ?? null,
    venue: q ? snapshot.venue : null
  };
}
var SORT_VALUE = {
  volume: (r) => r.volume_24h_usd,
  price: (r) => r.price,
  change_1h: (r) => r.change_1h_pct,
  change_24h: (r) => r.change_24h_pct,
  change_7d: (r) => r.change_7d_pct
};
function sortRows(rows, sort, dir) {
  const sign = dir === "asc" ? 1 : -1;
  if (sort === "name") {
    return rows.sort((a, b) => sign * a.name.localeCompare(b.name, "en") || a.id.localeCompare(b.id));
  }
  const value = SORT_VALUE[sort];
  return rows.sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? a.id.localeCompare(b.id) : x === null ? 1 : -1;
    return sign * (x - y) || a.id.localeCompare(b.id);
  });
}
function inClass(asset, filter) {
  return filter === "all" || asset.asset_class === filter;
}
async function listAssets(deps, q) {
  const snapshot = await venueSnapshot(deps);
  const rows = universeOf(marketOf(deps)).assets.filter((a) => inClass(a, q.asset_class)).map((a) => rowOf(a, snapshot));
  return sortRows(rows, q.sort, q.sort_dir).slice(0, q.limit);
}
async function popularAssets(deps, limit) {
  const universe = universeOf(marketOf(deps));
  const counts = await deps.storage.favorites.popular(limit + 50);
  const snapshot = await venueSnapshot(deps);
  const out = [];
  for (const { asset_id, count } of counts) {
    const asset = universe.get(asset_id);
    if (asset) out.push({ ...rowOf(asset, snapshot), favorites: count });
    if (out.length >= limit) break;
  }
  return out;
}
async function favoriteAssets(deps, userId, q) {
  const universe = universeOf(marketOf(deps));
  const ids = await deps.storage.favorites.list(userId);
  const snapshot = await venueSnapshot(deps);
  const rows = [];
  for (const id of ids) {
    const asset = universe.get(id);
    if (asset && inClass(asset, q.asset_class)) rows.push(rowOf(asset, snapshot));
  }
  return sortRows(rows, q.sort, q.sort_dir).slice(0, q.limit);
}
async function addFavorite(deps, userId, assetId) {
  const asset = requireAsset(deps, assetId);
  await deps.storage.favorites.add(userId, asset.id, deps.now());
  return { asset_id: asset.id, is_favorite: true };
}
async function removeFavorite(deps, userId, assetId) {
  await deps.storage.favorites.remove(userId, assetId);
  return { asset_id: assetId, is_favorite: false };
}
function legacyAssetId(body2) {
  const id = body2.asset_id ?? body2.coin_id;
  if (id === void 0) throw new AppError("InvalidRequest", "Invalid json: asset_id: Required");
  return id;
}

// src/routes/v2/market-schemas.ts
var import_zod_openapi4 = require("@hono/zod-openapi");
var import_core3 = require("@marketlens/core");
var n = import_zod_openapi4.z.number();
var nn = import_zod_openapi4.z.number().nullable();
var time = import_zod_openapi4.z.iso.datetime();
var MarketTypeSchema = import_zod_openapi4.z.enum(["spot", "derivatives"]);
var AssetClassSchema = import_zod_openapi4.z.enum(["coins", "stocks", "fx", "external"]);
var AssetRefSchema = import_zod_openapi4.z.object({
  id: import_zod_openapi4.z.string().openapi({ example: "bitcoin" }),
  symbol: import_zod_openapi4.z.string(),
  name: import_zod_openapi4.z.string(),
  icon: import_zod_openapi4.z.string().openapi({ description: "A data: URI (never a remote URL)" }),
  asset_class: AssetClassSchema
}).openapi("AssetRef");
var ServedFields = {
  asset: AssetRefSchema,
  timeframe: import_zod_openapi4.z.enum(TIMEFRAMES),
  market_type: MarketTypeSchema.openapi({ description: "The market actually served" }),
  pair: import_zod_openapi4.z.string().openapi({ description: "Venue-native instrument name", example: "BTC/USDT" }),
  venue: import_zod_openapi4.z.string()
};
var IndicatorsSchema = import_zod_openapi4.z.object({
  close: n,
  change_pct: nn,
  volume: n,
  volume_z: nn,
  volume_ratio: nn,
  sma_20: nn,
  sma_50: nn,
  sma_200: nn,
  ema_20: nn,
  ema_50: nn,
  ema_200: nn,
  rsi_14: nn,
  macd: nn,
  macd_signal: nn,
  macd_histogram: nn,
  stoch_k: nn,
  stoch_d: nn,
  adx_14: nn,
  plus_di_14: nn,
  minus_di_14: nn,
  atr_14: nn,
  atr_pct: nn,
  cci_20: nn,
  williams_r_14: nn
}).openapi("IndicatorSnapshot");
var zoneFields = {
  kind: import_zod_openapi4.z.enum(["support", "resistance"]),
  low: n,
  high: n,
  mid: n,
  strength: n,
  touches: import_zod_openapi4.z.number().int(),
  last_touch_index: import_zod_openapi4.z.number().int(),
  last_touch_time: time,
  volume: n
};
var ZoneSchema = import_zod_openapi4.z.object(zoneFields).openapi("PriceZone");
var NearestLevelSchema = import_zod_openapi4.z.object({ ...zoneFields, distance_pct: n, distance_atr: nn }).openapi("NearestLevel");
var LevelsSchema = import_zod_openapi4.z.object({
  as_of_index: import_zod_openapi4.z.number().int(),
  as_of_time: time,
  mark: n,
  atr: nn,
  zones: import_zod_openapi4.z.array(ZoneSchema),
  nearest_support: NearestLevelSchema.nullable(),
  nearest_resistance: NearestLevelSchema.nullable()
}).openapi("AnalysisLevels");
var VolumeProfileSchema = import_zod_openapi4.z.object({
  poc: n,
  value_area_low: n,
  value_area_high: n,
  total_volume: n,
  basis: import_zod_openapi4.z.enum(["volume", "time"]),
  bins: import_zod_openapi4.z.array(import_zod_openapi4.z.object({ low: n, high: n, volume: n }))
}).openapi("VolumeProfile");
var Direction = import_zod_openapi4.z.enum(["long", "short"]);
var TradePlanSchema = import_zod_openapi4.z.object({
  direction: Direction.nullable(),
  bias: Direction.nullable(),
  reason: import_zod_openapi4.z.enum(["no_direction", "no_trend", "insufficient_data", "atr_warmup", "risk_below_cost", "degenerate_geometry"]).nullable(),
  published_index: import_zod_openapi4.z.number().int(),
  published_time: time,
  mark: n,
  atr: nn,
  entry_zone: import_zod_openapi4.z.object({ low: n, high: n }).nullable(),
  entry_price: nn,
  invalidation: nn,
  stop_loss: nn,
  take_profits: import_zod_openapi4.z.array(import_zod_openapi4.z.object({ price: n, size_pct: n, risk_reward: n })).max(2).openapi({ description: "At most two targets: 70% / 30% of the position, or 100% for one" }),
  risk_pct: nn,
  horizon_bars: nn,
  entry_window_bars: nn
}).openapi("TradePlan");
var FactorName = import_zod_openapi4.z.enum(import_core3.SIGNAL_FACTORS);
var SignalSchema = import_zod_openapi4.z.object({
  action: import_zod_openapi4.z.enum(["buy", "hold", "sell"]),
  score: n.openapi({ description: "Composite score in -1..1" }),
  confidence: n.openapi({ description: "0..1" }),
  factors: import_zod_openapi4.z.array(
    import_zod_openapi4.z.object({
      name: FactorName,
      score: nn,
      weight: n,
      base_weight: n,
      contribution: n,
      inputs: import_zod_openapi4.z.record(import_zod_openapi4.z.string(), import_zod_openapi4.z.union([import_zod_openapi4.z.number(), import_zod_openapi4.z.string()]).nullable()),
      reason: import_zod_openapi4.z.literal("insufficient_data").optional()
    })
  ),
  weights: import_zod_openapi4.z.record(import_zod_openapi4.z.string(), n),
  threshold: n,
  reason: import_zod_openapi4.z.literal("insufficient_data").optional()
}).openapi("Signal");
var RatingLabel = import_zod_openapi4.z.enum(["strong_sell", "sell", "neutral", "buy", "strong_buy"]);
var RatingGroupSchema = import_zod_openapi4.z.object({
  value: nn,
  rating: RatingLabel.nullable(),
  buy: n,
  neutral: n,
  sell: n,
  votes: import_zod_openapi4.z.array(
    import_zod_openapi4.z.object({ name: import_zod_openapi4.z.string(), value: nn, vote: import_zod_openapi4.z.union([import_zod_openapi4.z.literal(-1), import_zod_openapi4.z.literal(0), import_zod_openapi4.z.literal(1)]).nullable() })
  )
});
var TechnicalRatingSchema = import_zod_openapi4.z.object({
  value: nn,
  rating: RatingLabel.nullable(),
  moving_averages: RatingGroupSchema,
  oscillators: RatingGroupSchema,
  reason: import_zod_openapi4.z.literal("insufficient_data").optional()
}).openapi("TechnicalRating");
var FgComponent = import_zod_openapi4.z.enum(["volatility", "momentum", "volume", "overextension", "funding", "breadth", "dominance"]);
var FearGreedSchema = import_zod_openapi4.z.object({
  score: import_zod_openapi4.z.number().int().min(0).max(100).nullable(),
  zone: import_zod_openapi4.z.enum(import_core3.FEAR_GREED_ZONES.map((x) => x.zone)).nullable(),
  components: import_zod_openapi4.z.array(
    import_zod_openapi4.z.object({ name: FgComponent, value: n, weight: n, base_weight: n, inputs: import_zod_openapi4.z.record(import_zod_openapi4.z.string(), nn) })
  ),
  unavailable: import_zod_openapi4.z.array(
    import_zod_openapi4.z.object({ name: FgComponent, reason: import_zod_openapi4.z.enum(["not_supplied", "insufficient_data", "no_volume"]) })
  ),
  reason: import_zod_openapi4.z.literal("insufficient_data").optional()
}).openapi("FearGreed");
var Phase = import_zod_openapi4.z.enum(import_core3.REGIME_PHASES);
var RegimeSchema = import_zod_openapi4.z.object({
  phase: Phase.nullable(),
  previous_phase: Phase.nullable(),
  since: time.nullable(),
  bars_in_phase: nn,
  strength: nn,
  transition: import_zod_openapi4.z.object({ from: Phase, to: Phase, time, bars_ago: import_zod_openapi4.z.number().int() }).nullable(),
  changed: import_zod_openapi4.z.boolean(),
  inputs: import_zod_openapi4.z.object({ ema_50: nn, atr_14: nn, efficiency_ratio: nn, move_atr: nn, channel_position: nn }),
  reason: import_zod_openapi4.z.literal("insufficient_data").optional()
}).openapi("Regime");
var AnalysisSchema = import_zod_openapi4.z.object({
  ...ServedFields,
  as_of: time.openapi({ description: "Open time of the candle analysed (the last one, possibly still open)" }),
  as_of_index: import_zod_openapi4.z.number().int(),
  indicators: IndicatorsSchema,
  levels: LevelsSchema,
  volume_profile: VolumeProfileSchema,
  zone: TradePlanSchema,
  signal: SignalSchema,
  technical_rating: TechnicalRatingSchema,
  fear_greed: FearGreedSchema,
  regime: RegimeSchema,
  patterns: import_zod_openapi4.z.array(import_zod_openapi4.z.enum(import_core3.CANDLE_PATTERNS))
}).openapi("Analysis");
var SignalResponseSchema = import_zod_openapi4.z.object({
  ...ServedFields,
  as_of: time,
  signal: SignalSchema,
  cached_at: time.openapi({ description: "When this signal was computed" }),
  age: import_zod_openapi4.z.number().int().openapi({ description: "Seconds since cached_at" }),
  max_age: import_zod_openapi4.z.number().int().openapi({ description: "Seconds it is still served from the cache (of 3600)" })
}).openapi("AnalysisSignal");
var OverviewSchema = import_zod_openapi4.z.object({
  ...ServedFields,
  as_of: time,
  locale: import_zod_openapi4.z.string().openapi({ description: "The language served: the x-locale language when supported, else en" }),
  text: import_zod_openapi4.z.string(),
  facts: import_zod_openapi4.z.array(
    import_zod_openapi4.z.object({
      id: import_zod_openapi4.z.string(),
      values: import_zod_openapi4.z.record(
        import_zod_openapi4.z.string(),
        import_zod_openapi4.z.object({ value: import_zod_openapi4.z.union([import_zod_openapi4.z.number(), import_zod_openapi4.z.string(), import_zod_openapi4.z.array(import_zod_openapi4.z.string()).readonly()]), text: import_zod_openapi4.z.string() })
      )
    })
  )
}).openapi("AnalysisOverview");
var tickerFields = {
  venue: import_zod_openapi4.z.string(),
  pair: import_zod_openapi4.z.string(),
  asset_id: import_zod_openapi4.z.string().nullable(),
  market_type: MarketTypeSchema,
  base: import_zod_openapi4.z.string(),
  quote: import_zod_openapi4.z.string(),
  last: n,
  bid: nn,
  ask: nn,
  change_1h_pct: nn,
  change_24h_pct: nn,
  change_7d_pct: nn,
  volume_24h: nn.openapi({ description: "Base amount traded over 24h" }),
  quote_volume_usd: nn,
  time
};
var fundingFields = {
  settle: import_zod_openapi4.z.string().nullable(),
  funding_rate: nn.openapi({ description: "Per funding interval, as a fraction (0.0001 = 0.01%)" }),
  funding_interval_hours: nn,
  next_funding_time: time.nullable(),
  mark_price: nn,
  index_price: nn
};
var CoinTickerSchema = import_zod_openapi4.z.object(tickerFields).openapi("CoinTicker");
var CoinFuturesTickerSchema = import_zod_openapi4.z.object({ ...tickerFields, ...fundingFields }).openapi("CoinFuturesTicker");
var MarketsSchema = import_zod_openapi4.z.object({
  asset: AssetRefSchema,
  venue: import_zod_openapi4.z.string(),
  markets: import_zod_openapi4.z.array(CoinFuturesTickerSchema).openapi({ description: "Spot rows carry null funding columns" })
}).openapi("AssetMarkets");
var AssetRowSchema = import_zod_openapi4.z.object({
  id: import_zod_openapi4.z.string(),
  symbol: import_zod_openapi4.z.string(),
  name: import_zod_openapi4.z.string(),
  icon: import_zod_openapi4.z.string(),
  asset_class: AssetClassSchema,
  is_stablecoin: import_zod_openapi4.z.boolean(),
  price: nn,
  change_1h_pct: nn,
  change_24h_pct: nn,
  change_7d_pct: nn,
  volume_24h_usd: nn,
  market_type: MarketTypeSchema.nullable().openapi({
    description: "Market the row is priced from: spot, else derivatives"
  }),
  pair: import_zod_openapi4.z.string().nullable(),
  venue: import_zod_openapi4.z.string().nullable()
}).openapi("AssetRow");
var PopularAssetSchema = AssetRowSchema.extend({
  favorites: import_zod_openapi4.z.number().int().openapi({ description: "Users who favorite it" })
}).openapi("PopularAsset");
var FavoriteStateSchema = import_zod_openapi4.z.object({ asset_id: import_zod_openapi4.z.string(), is_favorite: import_zod_openapi4.z.boolean() }).openapi("FavoriteState");
var AssetListQuery = import_zod_openapi4.z.object({
  asset_class: import_zod_openapi4.z.enum(ASSET_CLASS_FILTERS).default("coins").openapi({
    description: "`coins` (default), `stocks`, `fx`, or `all` (every class, fx and on-chain included)"
  }),
  sort: import_zod_openapi4.z.enum(ASSET_SORTS).default("volume").openapi({ description: "Rows missing the value come last" }),
  sort_dir: import_zod_openapi4.z.enum(["asc", "desc"]).default("desc"),
  limit: import_zod_openapi4.z.coerce.number().int().min(1).max(500).default(100)
});
var ExchangeVolumeSchema = import_zod_openapi4.z.object({ spot_24h_usd: nn, derivatives_24h_usd: nn, total_24h_usd: nn }).openapi("ExchangeVolume", { description: "null where marketlens does not read the venue" });
var exchangeFields = {
  id: import_zod_openapi4.z.string(),
  name: import_zod_openapi4.z.string(),
  icon: import_zod_openapi4.z.string(),
  connected: import_zod_openapi4.z.boolean().openapi({ description: "The caller has a connection to it" }),
  volume: ExchangeVolumeSchema,
  affiliate_url: import_zod_openapi4.z.string().nullable().optional(),
  api_connection_exists: import_zod_openapi4.z.boolean().nullable().optional(),
  api_key_guide_url: import_zod_openapi4.z.string().nullable().optional(),
  promotion: import_zod_openapi4.z.null().optional().openapi({ description: "AffiliatePromotion; none yet" }),
  website_url: import_zod_openapi4.z.string().nullable().optional(),
  spot: import_zod_openapi4.z.boolean(),
  futures: import_zod_openapi4.z.boolean(),
  simulated: import_zod_openapi4.z.boolean()
};
var ExchangeSchema = import_zod_openapi4.z.object(exchangeFields).openapi("Exchange");
var ExchangeDetailSchema = import_zod_openapi4.z.object({
  ...exchangeFields,
  spot_pairs: import_zod_openapi4.z.number().int().min(0),
  futures_pairs: import_zod_openapi4.z.number().int().min(0),
  futures_open_interest_usd: n,
  spot_tickers: import_zod_openapi4.z.array(CoinTickerSchema),
  futures_tickers: import_zod_openapi4.z.array(CoinFuturesTickerSchema)
}).openapi("ExchangeDetail");
var AnalysisQueryFields = {
  timeframe: import_zod_openapi4.z.enum(TIMEFRAMES).default(DEFAULT_TIMEFRAME).openapi({ description: "Default d1 (free)" }),
  market_type: MarketTypeSchema.optional().openapi({ description: "A preference, not a filter" }),
  pair: import_zod_openapi4.z.string().min(1).max(64).optional().openapi({ description: "Venue-native instrument of the asset" }),
  limit: import_zod_openapi4.z.coerce.number().int().min(50).max(CHART_DEPTH.pro).default(CHART_DEPTH.free).openapi({ description: `Candles analysed; deeper than ${CHART_DEPTH.free} needs Pro (402, code 1005)` })
};

// src/routes/v1/assets.ts
var json2 = (schema, description) => ({
  description,
  content: { "application/json": { schema } }
});
var LegacyFavoriteBody = import_zod_openapi5.z.object({
  asset_id: import_zod_openapi5.z.string().min(1).max(128).optional(),
  coin_id: import_zod_openapi5.z.string().min(1).max(128).optional().openapi({ description: "Earlier name of asset_id" })
}).openapi("LegacyFavoriteRequest");
var LEGACY = "Legacy surface over the same favorites list as `/v2/assets/favorites`.";
var listRoute = operation(SESSION_ONLY, {
  method: "get",
  path: "/v1/assets/coins/favorite",
  operationId: "listFavoriteCoinsLegacy",
  tags: ["Assets"],
  summary: "The caller's favorite coins (legacy)",
  description: `${LEGACY} Lists coins only, as it always did; stocks and fx favorites are read on /v2.`,
  responses: { 200: json2(envelopeOf(import_zod_openapi5.z.array(AssetRowSchema)), "Favorite coins, by 24h volume") }
});
var addRoute = operation(
  SESSION_ONLY,
  {
    method: "post",
    path: "/v1/assets/coins/favorite",
    operationId: "addFavoriteCoinLegacy",
    tags: ["Assets"],
    summary: "Favorite an asset (legacy; idempotent)",
    description: `${LEGACY} Body: \`asset_id\` (or its earlier name \`coin_id\`).`,
    request: { body: { content: { "application/json": { schema: LegacyFavoriteBody } }, required: true } },
    responses: { 200: json2(envelopeOf(FavoriteStateSchema), "Favorited") }
  },
  [404]
);
var removeRoute = operation(SESSION_ONLY, {
  method: "delete",
  path: "/v1/assets/coins/favorite/{asset_id}",
  operationId: "removeFavoriteCoinLegacy",
  tags: ["Assets"],
  summary: "Remove a favorite (legacy; idempotent)",
  description: LEGACY,
  request: {
    params: import_zod_openapi5.z.object({
      asset_id: import_zod_openapi5.z.string().min(1).max(128).openapi({ param: { name: "asset_id", in: "path" } })
    })
  },
  responses: { 200: json2(envelopeOf(FavoriteStateSchema), "Not a favorite (any more)") }
});
function registerLegacyAssetRoutes(app) {
  app.openapi(listRoute, async (c) => {
    const { user } = requireUser(c.get("caller"));
    const query = { asset_class: "coins", sort: "volume", sort_dir: "desc", limit: 500 };
    return c.json(ok(await favoriteAssets(c.get("deps"), user.id, query)), 200);
  });
  app.openapi(addRoute, async (c) => {
    const { user } = requireUser(c.get("caller"));
    return c.json(ok(await addFavorite(c.get("deps"), user.id, legacyAssetId(c.req.valid("json")))), 200);
  });
  app.openapi(removeRoute, async (c) => {
    const { user } = requireUser(c.get("caller"));
    return c.json(ok(await removeFavorite(c.get("deps"), user.id, c.req.valid("param").asset_id)), 200);
  });
}

// src/routes/v1/auth.ts
var import_zod_openapi6 = require("@hono/zod-openapi");
var Credentials = import_zod_openapi6.z.object({
  email: import_zod_openapi6.z.email().max(254).openapi({ example: "ada@example.com" }),
  password: import_zod_openapi6.z.string().min(8).max(256).openapi({ example: "correct horse battery" })
}).openapi("Credentials");
var SessionSchema = import_zod_openapi6.z.object({
  user: import_zod_openapi6.z.object({
    id: import_zod_openapi6.z.uuid(),
    email: import_zod_openapi6.z.string(),
    created_at: import_zod_openapi6.z.iso.datetime()
  }),
  session_token: import_zod_openapi6.z.string().openapi({ description: "Send as `x-session-token`. Shown only here." }),
  expires_at: import_zod_openapi6.z.iso.datetime()
}).openapi("Session");
var sessionView = (g) => ({
  user: { id: g.user.id, email: g.user.email, created_at: new Date(g.user.created_at).toISOString() },
  session_token: g.token,
  expires_at: new Date(g.expires_at).toISOString()
});
var json3 = (schema, description) => ({
  description,
  content: { "application/json": { schema } }
});
var body = { body: { content: { "application/json": { schema: Credentials } }, required: true } };
var signupRoute = operation(
  PUBLIC,
  {
    method: "post",
    path: "/v1/auth/signup",
    operationId: "signup",
    tags: ["Auth"],
    summary: "Create an account and open a session",
    description: "New accounts start on the free tier with the favorites bitcoin, ethereum and solana.",
    request: body,
    responses: { 200: json3(envelopeOf(SessionSchema, "SessionEnvelope"), "Account created, session opened") }
  },
  [422]
);
var loginRoute = operation(PUBLIC, {
  method: "post",
  path: "/v1/auth/login",
  operationId: "login",
  tags: ["Auth"],
  summary: "Open a session",
  request: body,
  responses: { 200: json3(envelopeOf(SessionSchema), "Session opened") }
});
var logoutRoute = operation(SESSION_ONLY, {
  method: "post",
  path: "/v1/auth/logout",
  operationId: "logout",
  tags: ["Auth"],
  summary: "End the current session",
  responses: { 200: json3(envelopeOf(import_zod_openapi6.z.null()), "Session ended") }
});
function registerAuthRoutes(app) {
  app.openapi(signupRoute, async (c) => {
    const { email, password } = c.req.valid("json");
    const g = await signup(c.get("deps").storage, email, password, c.get("deps").now());
    c.header("cache-control", "no-store");
    return c.json(ok(sessionView(g)), 200);
  });
  app.openapi(loginRoute, async (c) => {
    const { email, password } = c.req.valid("json");
    const g = await login(c.get("deps").storage, email, password, c.get("deps").now());
    c.header("cache-control", "no-store");
    return c.json(ok(sessionView(g)), 200);
  });
  app.openapi(logoutRoute, async (c) => {
    await logout(c.get("deps").storage, c.req.header("x-session-token") ?? "");
    return c.json(ok(null), 200);
  });
}

// src/routes/v1/exchanges.ts
var import_zod_openapi7 = require("@hono/zod-openapi");

// src/services/exchanges.ts
var import_exchanges4 = require("@marketlens/exchanges");
var NO_VOLUME = Object.freeze({ spot_24h_usd: null, derivatives_24h_usd: null, total_24h_usd: null });
function sumUsd(quotes) {
  let s = 0;
  for (const q of quotes) s += q.ticker.quote_volume_usd ?? 0;
  return s;
}
function volumeOf(quotes) {
  const spot = sumUsd(quotes.filter((q) => q.market.market_type === "spot"));
  const derivatives = sumUsd(quotes.filter((q) => q.market.market_type === "derivatives"));
  return { spot_24h_usd: spot, derivatives_24h_usd: derivatives, total_24h_usd: spot + derivatives };
}
function listItem(entry, snapshot) {
  return {
    id: entry.id,
    name: entry.name,
    icon: entry.icon,
    // Exchange connections arrive with the positions routes; until then nobody is connected.
    connected: false,
    volume: snapshot ? volumeOf(snapshot.quotes) : NO_VOLUME,
    affiliate_url: entry.affiliate_url,
    api_connection_exists: false,
    api_key_guide_url: entry.api_key_guide_url,
    promotion: null,
    website_url: entry.website_url,
    spot: entry.spot,
    futures: entry.futures,
    simulated: entry.simulated
  };
}
async function listExchanges(deps) {
  const venue = marketOf(deps).venue;
  const snapshot = import_exchanges4.EXCHANGE_CATALOG.some((e) => e.id === venue) ? await venueSnapshot(deps) : null;
  return import_exchanges4.EXCHANGE_CATALOG.map((e) => listItem(e, e.id === venue ? snapshot : null));
}
async function exchangeDetail(deps, exchangeId) {
  const entry = (0, import_exchanges4.exchangeCatalogEntry)(exchangeId);
  if (!entry) throw new AppError("UnknownExchange", `Unknown exchange '${exchangeId}'`);
  const snapshot = entry.id === marketOf(deps).venue ? await venueSnapshot(deps) : null;
  const quotes = snapshot?.quotes ?? [];
  const spot = quotes.filter((q) => q.market.market_type === "spot");
  const futures = quotes.filter((q) => q.market.market_type === "derivatives");
  return {
    ...listItem(entry, snapshot),
    spot_pairs: spot.length,
    futures_pairs: futures.length,
    // No venue marketlens reads reports open interest yet; the contract types it as a number.
    futures_open_interest_usd: 0,
    spot_tickers: spot.map((q) => ({ ...tickerWire(q.ticker), base: q.market.base, quote: q.market.quote })),
    futures_tickers: futures.map((q) => ({
      ...tickerWire(q.ticker),
      base: q.market.base,
      quote: q.market.quote,
      settle: q.market.settle,
      ...fundingWire(q.funding)
    }))
  };
}

// src/routes/v1/exchanges.ts
var json4 = (schema, description) => ({
  description,
  content: { "application/json": { schema } }
});
var listRoute2 = operation(SESSION_OR_API_KEY, {
  method: "get",
  path: "/v1/exchanges",
  operationId: "listExchanges",
  tags: ["Exchanges"],
  summary: "Exchange catalog",
  description: "Every venue marketlens can read. Volumes are live for the venue the server reads market data from.",
  responses: { 200: json4(envelopeOf(import_zod_openapi7.z.array(ExchangeSchema), "ExchangeListEnvelope"), "Exchanges") }
});
var detailRoute = operation(
  SESSION_OR_API_KEY,
  {
    method: "get",
    path: "/v1/exchanges/{exchange_id}",
    operationId: "getExchange",
    tags: ["Exchanges"],
    summary: "One exchange with pair counts and tickers",
    description: "Unknown exchange: 404 `UnknownExchange`. Pair counts and tickers are filled for the venue the server reads market data from; other venues report 0 and empty lists.",
    request: {
      params: import_zod_openapi7.z.object({
        exchange_id: import_zod_openapi7.z.string().min(1).max(64).openapi({ param: { name: "exchange_id", in: "path" }, example: "marketlens-sim" })
      })
    },
    responses: { 200: json4(envelopeOf(ExchangeDetailSchema, "ExchangeDetailEnvelope"), "The exchange") }
  },
  [404]
);
function registerExchangeRoutes(app) {
  app.openapi(listRoute2, async (c) => c.json(ok(await listExchanges(c.get("deps"))), 200));
  app.openapi(
    detailRoute,
    async (c) => c.json(ok(await exchangeDetail(c.get("deps"), c.req.valid("param").exchange_id)), 200)
  );
}

// src/routes/v2/analysis.ts
var import_zod_openapi8 = require("@hono/zod-openapi");
var AssetParam = import_zod_openapi8.z.object({
  asset_id: import_zod_openapi8.z.string().min(1).max(128).openapi({ param: { name: "asset_id", in: "path" }, example: "bitcoin" })
});
var AnalysisQuery = import_zod_openapi8.z.object(AnalysisQueryFields);
var AnalysisByQuery = import_zod_openapi8.z.object({
  asset_id: import_zod_openapi8.z.string().min(1).max(128).openapi({ example: "bitcoin" }),
  ...AnalysisQueryFields
});
var LocaleHeader = import_zod_openapi8.z.object({
  "x-locale": import_zod_openapi8.z.string().max(64).optional().openapi({
    description: "Language of the overview (en, es, de, fr, pt, ja, zh; a regional tag uses its language; else en)"
  })
});
var json5 = (schema, description) => ({
  description,
  content: { "application/json": { schema } }
});
var GATES = "Gates: `d1` is free; other timeframes need Pro (402, code 1004), except `h1` for mobile builds below 3.9.30; on-chain (`external`) assets are free on every timeframe; a `limit` deeper than the free candle ceiling needs Pro (402, code 1005). Unknown asset: 404 `UnknownAsset`; a pair the venue does not list for it: 404 `UnknownMarket`; a stablecoin: 400 `StablecoinNotAnalyzed`.";
var analysisDoc = {
  tags: ["Analysis"],
  summary: "Full technical analysis of an asset: indicators, zones, trade plan, signal, Fear & Greed, regime",
  description: `The analysis of the newest \`limit\` candles, as of the last (possibly still open) candle. \`market_type\` in the response is the market actually served. ${GATES}`,
  responses: { 200: json5(envelopeOf(AnalysisSchema, "AnalysisEnvelope"), "The analysis") }
};
var analysisByQueryRoute = operation(
  SESSION_OR_API_KEY,
  {
    method: "get",
    path: "/v2/analysis",
    operationId: "getAnalysis",
    request: { query: AnalysisByQuery },
    ...analysisDoc
  },
  [402, 404]
);
var analysisRoute = operation(
  SESSION_OR_API_KEY,
  {
    method: "get",
    path: "/v2/analysis/{asset_id}",
    operationId: "getAssetAnalysis",
    request: { params: AssetParam, query: AnalysisQuery },
    ...analysisDoc
  },
  [402, 404]
);
var signalRoute = operation(
  SESSION_OR_API_KEY,
  {
    method: "get",
    path: "/v2/analysis/{asset_id}/signal",
    operationId: "getAssetSignal",
    tags: ["Analysis"],
    summary: "Buy/Hold/Sell signal with confidence and factor breakdown (cached 1 hour)",
    description: `One computation is served for an hour per asset, timeframe, market and depth: \`cached_at\` says when, \`age\` how long ago, and \`cache-control: max-age\` how long it stays. ${GATES}`,
    request: { params: AssetParam, query: AnalysisQuery },
    responses: {
      200: {
        ...json5(envelopeOf(SignalResponseSchema, "AnalysisSignalEnvelope"), "The signal"),
        headers: {
          "cache-control": { description: "private, max-age=<seconds left of the hour>", schema: { type: "string" } },
          age: { description: "Seconds since the signal was computed", schema: { type: "integer" } }
        }
      }
    }
  },
  [402, 404]
);
var overviewRoute = operation(
  SESSION_OR_API_KEY,
  {
    method: "get",
    path: "/v2/analysis/{asset_id}/overview",
    operationId: "getAssetOverview",
    tags: ["Analysis"],
    summary: "Market overview narrative, localized by x-locale",
    description: `A short narrative built from the analysis facts; every number in it is one of \`facts\`. ${GATES}`,
    request: { params: AssetParam, query: AnalysisQuery, headers: LocaleHeader },
    responses: { 200: json5(envelopeOf(OverviewSchema, "AnalysisOverviewEnvelope"), "The overview") }
  },
  [402, 404]
);
var marketsRoute = operation(
  SESSION_OR_API_KEY,
  {
    method: "get",
    path: "/v2/analysis/{asset_id}/markets",
    operationId: "getAssetMarkets",
    tags: ["Analysis"],
    summary: "Markets of an asset with their tickers (spot and derivatives combined unless market_type is given)",
    request: { params: AssetParam, query: import_zod_openapi8.z.object({ market_type: MarketTypeSchema.optional() }) },
    responses: { 200: json5(envelopeOf(MarketsSchema, "AssetMarketsEnvelope"), "Markets, spot first") }
  },
  [404]
);
function gated(c, request) {
  const deps = c.get("deps");
  const asset = requireAsset(deps, request.asset_id);
  checkAnalysisAccess(asset, request, c.get("caller"), c.get("client"));
  return { deps, asset };
}
var VARY = "x-session-token, x-api-key, x-platform, x-app-version";
function registerAnalysisRoutes(app) {
  app.openapi(analysisByQueryRoute, async (c) => {
    const request = c.req.valid("query");
    const { deps, asset } = gated(c, request);
    return c.json(ok(analysisWire(await analysisOf(deps, asset, request))), 200);
  });
  app.openapi(analysisRoute, async (c) => {
    const request = { ...c.req.valid("query"), asset_id: c.req.valid("param").asset_id };
    const { deps, asset } = gated(c, request);
    return c.json(ok(analysisWire(await analysisOf(deps, asset, request))), 200);
  });
  app.openapi(signalRoute, async (c) => {
    const request = { ...c.req.valid("query"), asset_id: c.req.valid("param").asset_id };
    const { deps, asset } = gated(c, request);
    const result = await signalOf(deps, asset, request);
    c.header("cache-control", `private, max-age=${result.max_age}`);
    c.header("age", String(result.age));
    c.header("vary", VARY);
    return c.json(ok(result), 200);
  });
  app.openapi(overviewRoute, async (c) => {
    const request = { ...c.req.valid("query"), asset_id: c.req.valid("param").asset_id };
    const { deps, asset } = gated(c, request);
    const result = await overviewOf(deps, asset, request, c.req.valid("header")["x-locale"]);
    c.header("content-language", result.locale);
    c.header("vary", `x-locale, ${VARY}`);
    return c.json(ok(result), 200);
  });
  app.openapi(marketsRoute, async (c) => {
    const deps = c.get("deps");
    const asset = requireAsset(deps, c.req.valid("param").asset_id);
    return c.json(ok(await marketsOf(deps, asset, c.req.valid("query").market_type)), 200);
  });
}

// src/routes/v2/assets.ts
var import_zod_openapi9 = require("@hono/zod-openapi");
var json6 = (schema, description) => ({
  description,
  content: { "application/json": { schema } }
});
var FavoriteBody = import_zod_openapi9.z.object({ asset_id: import_zod_openapi9.z.string().min(1).max(128).openapi({ example: "bitcoin" }) }).openapi("FavoriteRequest");
var listRoute3 = operation(SESSION_OR_API_KEY, {
  method: "get",
  path: "/v2/assets/",
  operationId: "listAssets",
  tags: ["Assets"],
  summary: "Assets of a class with price and 1h/24h/7d change columns",
  description: "Sorted by `sort` (`volume` by default, 24h USD volume) in `sort_dir`; rows missing the value come last, ties by id. Stocks and fx without a spot listing are priced from their derivatives.",
  request: { query: AssetListQuery },
  responses: { 200: json6(envelopeOf(import_zod_openapi9.z.array(AssetRowSchema), "AssetListEnvelope"), "Asset rows") }
});
var popularRoute = operation(SESSION_OR_API_KEY, {
  method: "get",
  path: "/v2/assets/popular",
  operationId: "listPopularAssets",
  tags: ["Assets"],
  summary: "Most popular assets by community favorites",
  request: { query: import_zod_openapi9.z.object({ limit: import_zod_openapi9.z.coerce.number().int().min(1).max(100).default(20) }) },
  responses: { 200: json6(envelopeOf(import_zod_openapi9.z.array(PopularAssetSchema)), "Most favorited first (ties by id)") }
});
var listFavoritesRoute = operation(SESSION_ONLY, {
  method: "get",
  path: "/v2/assets/favorites",
  operationId: "listFavoriteAssets",
  tags: ["Assets"],
  summary: "The caller's favorites across coins, stocks and fx",
  description: "Same filters and sort as `GET /v2/assets/`, except that `asset_class` defaults to `all`.",
  request: { query: AssetListQuery.extend({ asset_class: AssetListQuery.shape.asset_class.unwrap().default("all") }) },
  responses: { 200: json6(envelopeOf(import_zod_openapi9.z.array(AssetRowSchema)), "Favorite asset rows") }
});
var addFavoriteRoute = operation(
  SESSION_ONLY,
  {
    method: "post",
    path: "/v2/assets/favorites",
    operationId: "addFavoriteAsset",
    tags: ["Assets"],
    summary: "Favorite an asset (idempotent)",
    description: "Favoriting an asset already favorited succeeds and changes nothing. Unknown asset: 404 `UnknownAsset`.",
    request: { body: { content: { "application/json": { schema: FavoriteBody } }, required: true } },
    responses: { 200: json6(envelopeOf(FavoriteStateSchema, "FavoriteStateEnvelope"), "Favorited") }
  },
  [404]
);
var removeFavoriteRoute = operation(SESSION_ONLY, {
  method: "delete",
  path: "/v2/assets/favorites/{asset_id}",
  operationId: "removeFavoriteAsset",
  tags: ["Assets"],
  summary: "Remove a favorite (idempotent)",
  description: "Removing a favorite that is absent succeeds.",
  request: {
    params: import_zod_openapi9.z.object({
      asset_id: import_zod_openapi9.z.string().min(1).max(128).openapi({ param: { name: "asset_id", in: "path" } })
    })
  },
  responses: { 200: json6(envelopeOf(FavoriteStateSchema), "Not a favorite (any more)") }
});
function registerAssetRoutes(app) {
  app.openapi(listRoute3, async (c) => c.json(ok(await listAssets(c.get("deps"), c.req.valid("query"))), 200));
  app.openapi(
    popularRoute,
    async (c) => c.json(ok(await popularAssets(c.get("deps"), c.req.valid("query").limit)), 200)
  );
  app.openapi(listFavoritesRoute, async (c) => {
    const { user } = requireUser(c.get("caller"));
    return c.json(ok(await favoriteAssets(c.get("deps"), user.id, c.req.valid("query"))), 200);
  });
  app.openapi(addFavoriteRoute, async (c) => {
    const { user } = requireUser(c.get("caller"));
    return c.json(ok(await addFavorite(c.get("deps"), user.id, c.req.valid("json").asset_id)), 200);
  });
  app.openapi(removeFavoriteRoute, async (c) => {
    const { user } = requireUser(c.get("caller"));
    return c.json(ok(await removeFavorite(c.get("deps"), user.id, c.req.valid("param").asset_id)), 200);
  });
}

// src/routes/v2/config.ts
var import_zod_openapi10 = require("@hono/zod-openapi");
var ConfigSchema = import_zod_openapi10.z.object({
  analysis: import_zod_openapi10.z.object({
    default_timeframe: import_zod_openapi10.z.string().openapi({ example: "d1" }),
    timeframes: import_zod_openapi10.z.array(
      import_zod_openapi10.z.object({ value: import_zod_openapi10.z.string(), needs_pro: import_zod_openapi10.z.boolean().openapi({ description: "For this caller and client" }) })
    )
  }),
  chart_depth: import_zod_openapi10.z.object({
    free: import_zod_openapi10.z.number().int().openapi({ description: "Deepest candle window for free callers" }),
    pro: import_zod_openapi10.z.number().int().openapi({ description: "Deepest candle window for Pro and Elite" })
  }),
  signals: import_zod_openapi10.z.object({
    timeframes: import_zod_openapi10.z.array(import_zod_openapi10.z.string()),
    controls: import_zod_openapi10.z.array(
      import_zod_openapi10.z.object({
        name: import_zod_openapi10.z.string(),
        type: import_zod_openapi10.z.enum(["enum", "enum_list", "number", "range", "boolean"]),
        values: import_zod_openapi10.z.array(import_zod_openapi10.z.string()).nullable(),
        min: import_zod_openapi10.z.number().nullable(),
        max: import_zod_openapi10.z.number().nullable(),
        default: import_zod_openapi10.z.string().nullable(),
        description: import_zod_openapi10.z.string()
      })
    ),
    sorts: import_zod_openapi10.z.array(import_zod_openapi10.z.string())
  }),
  alerts: import_zod_openapi10.z.object({
    kinds: import_zod_openapi10.z.array(
      import_zod_openapi10.z.object({
        kind: import_zod_openapi10.z.string(),
        timeframes: import_zod_openapi10.z.array(
          import_zod_openapi10.z.object({
            value: import_zod_openapi10.z.string(),
            evaluates_as: import_zod_openapi10.z.string().openapi({ description: "The window the alert is actually evaluated over" })
          })
        )
      })
    )
  }),
  caller: import_zod_openapi10.z.object({
    state: import_zod_openapi10.z.enum(["anonymous", "authenticated", "unavailable"]),
    via: import_zod_openapi10.z.enum(["session", "api_key"]).nullable(),
    tier: import_zod_openapi10.z.enum(TIERS).nullable(),
    is_pro: import_zod_openapi10.z.boolean().nullable(),
    is_elite: import_zod_openapi10.z.boolean().nullable(),
    tier_expires_at: import_zod_openapi10.z.iso.datetime().nullable()
  })
}).openapi("Config");
var configRoute = operation(OPTIONAL_SESSION_OR_API_KEY, {
  method: "get",
  path: "/v2/config",
  operationId: "getConfig",
  tags: ["Config"],
  summary: "Client configuration: timeframes, depths, signal controls, alert kinds, caller tier",
  description: "Readable without a credential (`caller.state` is `anonymous`). When the subscription cannot be read, `caller.state` is `unavailable` and `is_pro` is null: keep previous knowledge. Served as a private cache.",
  responses: {
    200: {
      description: "The config document",
      content: { "application/json": { schema: envelopeOf(ConfigSchema, "ConfigEnvelope") } }
    }
  }
});
function registerConfigRoutes(app) {
  app.openapi(configRoute, (c) => {
    c.header("cache-control", "private, max-age=60");
    c.header("vary", "x-session-token, x-api-key, x-platform, x-app-version");
    return c.json(ok(configDocument(c.get("caller"), c.get("client"))), 200);
  });
}

// src/app.ts
var SERVICE_VERSION = "2.10.55";
var OPENAPI_PATH = "/docs/openapi.json";
var QUERY_KEY_NAMES = ["api_key", "apikey", "apiKey", "x-api-key", "x_api_key"];
var refuseQueryKey = (c, next) => {
  if (c.req.url.includes("?")) {
    for (const name of QUERY_KEY_NAMES) {
      if (c.req.query(name) !== void 0) {
        throw new AppError(
          "ApiKeyInQuery",
          "API keys are accepted only in the x-api-key header, never in the query string"
        );
      }
    }
  }
  return next();
};
function createApp(appDeps, options = {}) {
  const deps = { ...appDeps, sessionCache: appDeps.sessionCache ?? new SessionCache() };
  const app = new import_zod_openapi11.OpenAPIHono({
    defaultHook: (result) => {
      if (!result.success) {
        const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.length > 0 ? i.path.join(".") : result.target}: ${i.message}`).join("; ");
        throw new AppError("InvalidRequest", `Invalid ${result.target}: ${issues}`);
      }
    }
  });
  app.onError(errorHandler(options.logError));
  app.notFound(notFoundHandler);
  app.use("*", (c, next) => {
    c.set("deps", deps);
    return next();
  });
  app.use("*", clientIp(), rateLimit(), refuseQueryKey, clientVersion());
  app.openAPIRegistry.registerComponent("securitySchemes", "session", {
    type: "apiKey",
    in: "header",
    name: "x-session-token",
    description: "Session token from POST /v1/auth/signup or /v1/auth/login."
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "api_key", {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: "API key (read-only market-data routes only). Never in the query string."
  });
  registerAuthRoutes(app);
  registerApiKeyRoutes(app);
  registerConfigRoutes(app);
  registerAnalysisRoutes(app);
  registerAssetRoutes(app);
  registerLegacyAssetRoutes(app);
  registerExchangeRoutes(app);
  app.doc31(OPENAPI_PATH, (c) => ({
    openapi: "3.1.0",
    info: {
      title: "marketlens",
      version: SERVICE_VERSION,
      description: `Technical-analysis and market-data service. Every success is an envelope \`{ code, success, data, message }\`; every failure an \`ErrorResponse\` with a stable \`code\`. Release feed: ${new URL(RELEASE_FEED_PATH, c.req.url).href}`,
      license: { name: "MIT", identifier: "MIT" },
      "x-release-feed": RELEASE_FEED_PATH
    },
    servers: [{ url: new URL(c.req.url).origin, description: "This server" }],
    tags: [
      { name: "Auth", description: "Accounts and sessions" },
      { name: "API keys", description: "Keys for the read-only market-data routes" },
      { name: "Config", description: "Client configuration" }
    ]
  }));
  registerDocsUi(app);
  registerReleaseFeed(app);
  return app;
}

// src/server.ts
var import_node_fs = require("fs");
var import_node_path2 = require("path");
var import_node_server = require("@hono/node-server");
var import_exchanges7 = require("@marketlens/exchanges");

// src/env.ts
var DEFAULT_CONFIG = {
  trustedProxies: [],
  minClientVersion: "3.0.0",
  rateLimit: { limit: 2e3, windowMs: 6e4 }
};

// src/storage/sqlite/sqlite-storage.ts
var import_better_sqlite3 = __toESM(require("better-sqlite3"), 1);

// src/storage/sqlite/migrations.ts
var MIGRATIONS = [
  {
    version: 1,
    name: "accounts",
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        tier TEXT NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'pro', 'elite')),
        created_at INTEGER NOT NULL
      );
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE TABLE tier_grants (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        tier TEXT NOT NULL CHECK (tier IN ('free', 'pro', 'elite')),
        source TEXT NOT NULL,
        granted_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX tier_grants_user ON tier_grants(user_id, expires_at);
      CREATE TABLE favorites (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        asset_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, asset_id)
      );
    `
  },
  {
    version: 2,
    name: "api_keys",
    sql: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT,
        prefix TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        revoked_at INTEGER,
        last_used_at INTEGER
      );
      CREATE INDEX api_keys_user ON api_keys(user_id);
      CREATE TABLE api_usage (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        day TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (user_id, day)
      );
    `
  },
  {
    version: 3,
    name: "favorites_popularity",
    // The favorites table shipped with version 1; this only makes sure it exists (a no-op then)
    // and indexes it by asset for the popularity count of GET /v2/assets/popular.
    sql: `
      CREATE TABLE IF NOT EXISTS favorites (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        asset_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, asset_id)
      );
      CREATE INDEX IF NOT EXISTS favorites_asset ON favorites(asset_id);
    `
  }
];

// src/storage/sqlite/sqlite-storage.ts
function migrate(db, migrations = MIGRATIONS) {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
  );
  const current = db.prepare("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations").get().v;
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  let version = current;
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    })();
    version = m.version;
  }
  return version;
}
function openSqlite(filename) {
  const db = new import_better_sqlite3.default(filename);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  migrate(db);
  return db;
}
function users(db) {
  const insert = db.prepare(
    "INSERT INTO users (id, email, password_hash, tier, created_at) VALUES (@id, @email, @password_hash, @tier, @created_at) ON CONFLICT(email) DO NOTHING"
  );
  const fav = db.prepare("INSERT OR IGNORE INTO favorites (user_id, asset_id, created_at) VALUES (?, ?, ?)");
  const byId = db.prepare("SELECT * FROM users WHERE id = ?");
  const byEmail = db.prepare("SELECT * FROM users WHERE email = ?");
  const setTier = db.prepare("UPDATE users SET tier = ? WHERE id = ?");
  const create = db.transaction((user, favorites2) => {
    if (insert.run(user).changes === 0) return null;
    for (const a of favorites2) fav.run(user.id, a, user.created_at);
    return user;
  });
  return {
    create: async (user, favorites2) => create(user, favorites2),
    byId: async (id) => byId.get(id) ?? null,
    byEmail: async (email) => byEmail.get(email) ?? null,
    setTier: async (id, tier) => setTier.run(tier, id).changes > 0
  };
}
function sessions(db) {
  const insert = db.prepare(
    "INSERT INTO sessions (id, user_id, token_hash, created_at, expires_at) VALUES (@id, @user_id, @token_hash, @created_at, @expires_at)"
  );
  const byHash = db.prepare("SELECT * FROM sessions WHERE token_hash = ?");
  const del = db.prepare("DELETE FROM sessions WHERE token_hash = ?");
  const delExpired = db.prepare("DELETE FROM sessions WHERE expires_at <= ?");
  return {
    create: async (s) => {
      insert.run(s);
    },
    byTokenHash: async (h) => byHash.get(h) ?? null,
    deleteByTokenHash: async (h) => del.run(h).changes > 0,
    deleteExpired: async (now) => delExpired.run(now).changes
  };
}
function grants(db) {
  const insert = db.prepare(
    "INSERT INTO tier_grants (id, user_id, tier, source, granted_at, expires_at) VALUES (@id, @user_id, @tier, @source, @granted_at, @expires_at)"
  );
  const active = db.prepare("SELECT * FROM tier_grants WHERE user_id = ? AND expires_at > ? ORDER BY expires_at DESC");
  return {
    create: async (g) => {
      insert.run(g);
    },
    active: async (userId, now) => active.all(userId, now)
  };
}
function apiKeys(db) {
  const insert = db.prepare(
    `INSERT INTO api_keys (id, user_id, name, prefix, key_hash, created_at, expires_at, revoked_at, last_used_at)
     VALUES (@id, @user_id, @name, @prefix, @key_hash, @created_at, @expires_at, @revoked_at, @last_used_at)`
  );
  const countActive = db.prepare(
    "SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)"
  );
  const byHash = db.prepare("SELECT * FROM api_keys WHERE key_hash = ?");
  const list = db.prepare("SELECT * FROM api_keys WHERE user_id = ? ORDER BY created_at DESC, id");
  const revoke = db.prepare("UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND id = ? AND revoked_at IS NULL");
  const touch = db.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?");
  const create = db.transaction((key, maxActive, now) => {
    const { n: n2 } = countActive.get(key.user_id, now);
    if (n2 >= maxActive) return false;
    insert.run(key);
    return true;
  });
  return {
    createIfBelow: async (key, maxActive, now) => create(key, maxActive, now),
    byHash: async (h) => byHash.get(h) ?? null,
    listByUser: async (userId) => list.all(userId),
    revoke: async (userId, id, now) => revoke.run(now, userId, id).changes > 0,
    touch: async (id, now) => {
      touch.run(now, id);
    }
  };
}
function apiUsage(db) {
  const consume = db.prepare(
    `INSERT INTO api_usage (user_id, day, count) VALUES (@user_id, @day, 1)
     ON CONFLICT(user_id, day) DO UPDATE SET count = count + 1 WHERE count < @limit
     RETURNING count`
  );
  const used = db.prepare("SELECT count FROM api_usage WHERE user_id = ? AND day = ?");
  return {
    consume: async (userId, day, limit) => {
      if (limit <= 0) return null;
      const row = consume.get({ user_id: userId, day, limit });
      return row ? row.count : null;
    },
    used: async (userId, day) => used.get(userId, day)?.count ?? 0
  };
}
function favorites(db) {
  const add = db.prepare("INSERT OR IGNORE INTO favorites (user_id, asset_id, created_at) VALUES (?, ?, ?)");
  const remove = db.prepare("DELETE FROM favorites WHERE user_id = ? AND asset_id = ?");
  const list = db.prepare("SELECT asset_id FROM favorites WHERE user_id = ? ORDER BY created_at, asset_id");
  const popular = db.prepare(
    "SELECT asset_id, COUNT(*) AS count FROM favorites GROUP BY asset_id ORDER BY count DESC, asset_id LIMIT ?"
  );
  return {
    add: async (u, a, now) => {
      add.run(u, a, now);
    },
    remove: async (u, a) => {
      remove.run(u, a);
    },
    list: async (u) => list.all(u).map((r) => r.asset_id),
    popular: async (limit) => popular.all(limit)
  };
}
function createSqliteStorage(filename) {
  const db = openSqlite(filename);
  return {
    db,
    users: users(db),
    sessions: sessions(db),
    grants: grants(db),
    apiKeys: apiKeys(db),
    apiUsage: apiUsage(db),
    favorites: favorites(db),
    schemaVersion: async () => db.prepare("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations").get().v,
    close: async () => {
      db.close();
    }
  };
}

// src/server.ts
function optionsFromEnv(env = process.env) {
  const port = env.PORT === void 0 || env.PORT === "" ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be an integer 0..65535, got ${env.PORT}`);
  return {
    port,
    host: env.HOST || "127.0.0.1",
    dataDir: (0, import_node_path2.resolve)(env.MARKETLENS_DATA_DIR || "./data"),
    config: {
      ...DEFAULT_CONFIG,
      trustedProxies: (env.MARKETLENS_TRUSTED_PROXIES ?? "").split(",").map((s) => s.trim()).filter((s) => s.length > 0),
      minClientVersion: env.MARKETLENS_MIN_CLIENT_VERSION || DEFAULT_CONFIG.minClientVersion
    }
  };
}
function openDataDir(dataDir) {
  (0, import_node_fs.mkdirSync)(dataDir, { recursive: true });
  return createSqliteStorage((0, import_node_path2.join)(dataDir, "marketlens.sqlite"));
}
function startServer(options, storage = openDataDir(options.dataDir), market = (0, import_exchanges7.createSimulatedVenue)()) {
  const app = createApp({ storage, config: options.config, now: Date.now, market });
  return new Promise((resolvePromise, reject) => {
    const server = (0, import_node_server.serve)({ fetch: app.fetch, port: options.port, hostname: options.host }, (info) => {
      const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
      resolvePromise({
        app,
        storage,
        url: `http://${host}:${info.port}`,
        close: () => new Promise((done) => {
          server.close(() => {
            void storage.close().then(done);
          });
        })
      });
    });
    server.on("error", reject);
  });
}

// src/main.ts
async function main() {
  const options = optionsFromEnv();
  const storage = openDataDir(options.dataDir);
  const demo = await seedDemo(storage);
  const server = await startServer(options, storage);
  const lines = [
    `marketlens server listening on ${server.url}`,
    `  docs:          ${server.url}/docs`,
    `  openapi:       ${server.url}${OPENAPI_PATH}`,
    `  release feed:  ${server.url}${RELEASE_FEED_PATH}`,
    `  data dir:      ${options.dataDir}`,
    `  demo user:     ${demo.email}`,
    `  session token: ${demo.session_token}`,
    `  api key:       ${demo.api_key}`,
    "",
    `  try: curl -s ${server.url}/v2/config -H 'x-api-key: ${demo.api_key}'`
  ];
  console.log(lines.join("\n"));
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
//# sourceMappingURL=main.cjs.map