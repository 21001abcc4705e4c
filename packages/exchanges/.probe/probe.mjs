import http from 'node:http';
import * as ccxt from 'ccxt';
const log = [];
let responder = () => ({ status: 200, body: '{}' });
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    let target = req.url.slice(1);
    if (target.startsWith('https%3A')) target = decodeURIComponent(target);
    log.push(`${req.method} ${target} ${body.slice(0, 300)}`);
    const r = responder(req.method, target, body);
    res.writeHead(r.status, { 'content-type': 'application/json', ...(r.headers ?? {}) });
    res.end(r.body);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;
export function mk(id, creds, markets) {
  const ex = new ccxt[id]({ ...creds, proxyUrl: `http://127.0.0.1:${port}/`, timeout: 3000 });
  if (markets) ex.setMarkets(markets);
  return ex;
}
export async function tryCall(label, fn) {
  log.length = 0;
  try { const r = await fn(); console.log('OK', label, JSON.stringify(r).slice(0, 400)); }
  catch (e) { console.log('ERR', label, e.constructor.name, String(e.message).slice(0, 300)); }
  for (const l of log) console.log('   ', l);
}
export function setResponder(f) { responder = f; }
export function close() { server.close(); }
export function M(o) {
  const linear = o.type !== 'spot' && o.settle === o.quote;
  return {
    id: o.id, symbol: o.symbol ?? (o.type === 'spot' ? `${o.base}/${o.quote}` : `${o.base}/${o.quote}:${o.settle}`),
    base: o.base, quote: o.quote, settle: o.settle, baseId: o.baseId ?? o.base, quoteId: o.quoteId ?? o.quote, settleId: o.settleId ?? o.settle,
    type: o.type, spot: o.type === 'spot', margin: false, swap: o.type === 'swap', future: o.type === 'future', option: false,
    active: true, contract: o.type !== 'spot', linear: o.type === 'spot' ? undefined : linear, inverse: o.type === 'spot' ? undefined : !linear,
    contractSize: o.contractSize ?? (o.type === 'spot' ? undefined : 1), precision: { amount: o.amountPrec ?? 0.001, price: o.pricePrec ?? 0.01 },
    limits: { amount: {}, price: {}, cost: {}, leverage: {} }, info: o.info ?? {}, ...(o.extra ?? {}),
  };
}
