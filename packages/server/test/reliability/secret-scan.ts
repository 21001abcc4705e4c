import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A source scan for secret comparisons made with `===` / `!==` (not constant-time): a comparison
 * is flagged when one operand names a secret (token, secret, password, key hash, signature, ...)
 * and the other is not a literal, `undefined`, `null`, a number or a `typeof`/`.length`/`.code`
 * read. Secrets must be compared with `timingSafeEqual` or looked up by their hash.
 */
export interface Finding {
  file: string;
  line: number;
  text: string;
}

const SECRET_NAME =
  /(token|secret|passw(or)?d|api_?key|apikey|key_?hash|token_?hash|password_?hash|signature|hmac|digest|credential|verifier|code_challenge)/i;
const OPERAND = String.raw`'[^']*'|"[^"]*"|\`[^\`]*\`|[\w$.\[\]?]+`;
const COMPARISON = new RegExp(String.raw`(${OPERAND})\s*(===|!==)\s*(${OPERAND})`, 'g');
const HARMLESS =
  /^(undefined|null|true|false|-?\d[\d_.]*|'[^']*'|"[^"]*"|`[^`]*`|\w+\.(length|code|kind|name|size|status|type|byteLength))$/;

function harmless(operand: string): boolean {
  return HARMLESS.test(operand) || /^typeof\b/.test(operand) || /^[A-Z][A-Z0-9_]*$/.test(operand);
}

/** The last identifier of an operand (`a.b.token_hash` -> `token_hash`, `f(x)` -> `f`). */
function lastName(operand: string): string {
  const names = operand.match(/[A-Za-z_$][\w$]*/g) ?? [];
  return names[names.length - 1] ?? '';
}

export function scanSource(text: string, file: string): Finding[] {
  const out: Finding[] = [];
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    if (/^\s*(\*|\/\*)/.test(code)) return;
    for (const m of code.matchAll(COMPARISON)) {
      const [, left, , right] = m;
      if (harmless(left) || harmless(right)) continue;
      if (SECRET_NAME.test(lastName(left)) || SECRET_NAME.test(lastName(right))) {
        out.push({ file, line: i + 1, text: line.trim() });
      }
    }
  });
  return out;
}

/** Every non-test `.ts` file under `dir`, scanned. */
export function scanTree(dir: string, root = dir): Finding[] {
  const out: Finding[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') out.push(...scanTree(path, root));
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) {
      out.push(...scanSource(readFileSync(path, 'utf8'), relative(root, path)));
    }
  }
  return out;
}
