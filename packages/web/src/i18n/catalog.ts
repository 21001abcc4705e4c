import type { Words } from './words.js';

/**
 * Every text of the page outside the narrative (which the server writes), in one language. Each
 * locale's file is typed with it, so a missing or extra key is a type error; a text with numbers or
 * names in it is a function of them. Trading words are the ones traders of the language use (es "en
 * largo / en corto", pt "comprado / vendido"), as in core's overview glossary.
 */
export interface Catalog {
  shell: {
    skip: string;
    mainNav: string;
    lists: string;
    account: string;
    searchLabel: string;
    searchPlaceholder: string;
    signIn: string;
    who: (email: string, tier: string) => string;
  };
  /**
   * Words of the analysis and the account as the API spells them (`extreme_greed`,
   * `stop_wrong_side`): each language's column of the one table of every word list, `WORDS`.
   */
  words: Words;
  asset: {
    signal: string;
    confidence: string;
    baseRate: string;
    expectedR: string;
    /** The probability at which the plan neither wins nor loses after costs. */
    breakEven: string;
    /** A Hold's declined plan: what it was worth, marked as no recommendation. */
    declinedPlan: string;
    /** The declined plan's probability of target 1 against its break-even. */
    declinedOdds: (probability: string, breakEven: string) => string;
    score: string;
    reason: string;
    factorContributions: string;
    plan: string;
    noTrade: (reason: string) => string;
    noTradeWithBias: (reason: string, bias: string) => string;
    direction: string;
    entry: string;
    stop: string;
    target: (n: number, sizePct: string) => string;
    levels: string;
    levelsCaption: (timeframe: string) => string;
    zone: string;
    range: string;
    strength: string;
    touchesShort: (strength: string, touches: number) => string;
    sentiment: string;
    componentWeight: (name: string, value: string, weight: string) => string;
    regime: string;
    since: (date: string) => string;
    regimeStrength: (value: string) => string;
    live: string;
    lastClose: string;
    timeframe: string;
    /** The hint on a gated timeframe button: the tier that unlocks it. */
    needsTier: (timeframe: string, tier: string) => string;
    show: (timeframe: string) => string;
    theTimeframe: (timeframe: string) => string;
    signInOrSignUp: string;
    overview: string;
  };
  chart: {
    label: string;
    tooltip: (kind: string, range: string, timeframe: string, strength: string, touches: number) => string;
    entry: (direction: string) => string;
    stop: string;
    target: (n: number) => string;
  };
  lists: {
    title: string;
    tabs: string;
    watchlist: string;
    allAssets: string;
    signals: string;
    screener: string;
    asset: string;
    assetClass: string;
    price: string;
    watch: string;
    add: (name: string) => string;
    remove: (name: string) => string;
    signInForWatchlist: string;
    emptyWatchlist: string;
    matches: (count: number, query: string) => string;
    screened: (count: number, timeframe: string) => string;
    breakouts: string;
    oversold: string;
    volumeSurges: string;
    noneToday: string;
    controls: string;
    timeframe: string;
    any: string;
    byDefault: (value: string) => string;
    apply: string;
    controlsApply: string;
    controlsNeedPro: string;
    action: string;
    confidence: string;
    trend: string;
    change: string;
    freeList: (limit: number, total: number) => string;
  };
  account: {
    title: string;
    checkEmail: string;
    verificationSent: (email: string) => string;
    signIn: string;
    email: string;
    password: string;
    createAccount: string;
    signUp: string;
    newPassword: string;
    loading: string;
    alerts: string;
    alertRow: (asset: string, kind: string, target: string, status: string) => string;
    alertRowOn: (asset: string, kind: string, target: string, timeframe: string, status: string) => string;
    deleteAlert: (kind: string, asset: string) => string;
    delete: string;
    noAlerts: string;
    createAlertForm: string;
    assetId: string;
    kind: string;
    target: string;
    alertTimeframe: string;
    createAlert: string;
    enablePush: string;
    push: {
      unsupported: string;
      insecure: string;
      denied: string;
      waiting: string;
      timedOut: (seconds: number) => string;
      refused: (reason: string) => string;
      on: string;
    };
    keys: string;
    name: string;
    prefix: string;
    keyState: string;
    action: string;
    active: string;
    inactive: string;
    revokeKey: (name: string) => string;
    revoke: string;
    createKeyForm: string;
    expiresInDays: string;
    createKey: string;
    newKey: (key: string) => string;
    connections: string;
    noConnections: string;
    connectionRow: (exchange: string, status: string) => string;
    lastSync: (date: string) => string;
    thesis: string;
    unrealizedR: string;
    remainingRR: string;
    entryVsPlan: string;
    nearestSupport: string;
    nearestResistance: string;
    warnings: string;
    none: string;
    positions: string;
    noPositions: string;
    positionRow: (pair: string, side: string, mark: string, pnl: string) => string;
    analysePosition: string;
    trackRecord: string;
    trackSummary: (hit: number, stopped: number, timeStopped: number, meanR: string, costPct: string) => string;
    diagramLabel: string;
    diagramDot: (confidence: string, hits: number, resolved: number) => string;
    diagramNote: string;
    nothingResolved: string;
    /** The audit table of the live and backtest records. */
    auditCaption: string;
    /** Its column heads: record, calls, hit rate, break-even, expected R, realized R, max drawdown, dates. */
    auditColumns: readonly [string, string, string, string, string, string, string, string];
    auditLive: string;
    auditBacktest: string;
    backtestPending: string;
    /** How many of the backtest's analyses published a call. */
    backtestShare: (calls: number, analyses: number) => string;
    signedInAs: (email: string, tier: string) => string;
    signOut: string;
    verifyTitle: string;
    verifying: string;
    noToken: string;
    verified: (email: string) => string;
  };
  errors: {
    /** A gated timeframe or depth (codes 1004, 1005): `what` is e.g. "The h1 timeframe". */
    needsPro: (what: string, message: string) => string;
    thisNeedsPro: (message: string) => string;
    sessionEnded: (message: string) => string;
    signInToSee: (message: string) => string;
    unknownAsset: (message: string) => string;
    badCredentials: (message: string) => string;
    rateLimited: (message: string) => string;
    invalidInput: (message: string) => string;
    limitReached: (message: string) => string;
    /** Creating an alert needs a push device or a webhook (`NoActiveDevice`). */
    noDevice: (message: string) => string;
    emailTaken: (message: string) => string;
    /** Any other `ErrorResponse`: its message (in English, as the API writes it) after a sentence in the page's language. */
    other: (message: string) => string;
    unreachable: string;
    badAnswer: (status: number) => string;
    /** A failure inside the browser (not an answer of the server). */
    browser: (message: string) => string;
  };
}
