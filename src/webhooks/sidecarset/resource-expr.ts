/**
 * Syntax of SidecarSet resourcesPolicy expressions (`max(cpu*50%, 50m)`,
 * `0.5*cpu - 0.3*max(0, cpu-4)`): + - * / between terms, parentheses, max()/min() of two or more
 * arguments, numbers, percentages, quantities and one variable (`cpu` or `memory`). Returns why an
 * expression does not parse, or undefined; the empty expression is allowed (nothing computed).
 */
import { isValidQuantity } from '../../machinery/quantity.js';

type Token = { kind: 'num' | 'ident' | 'op' | 'paren' | 'comma'; text: string };

const tokenRe = /\s*(?:(\d+(?:\.\d*)?|\.\d+)(%|[eE][-+]?\d+|[a-zA-Z]+)?|([a-zA-Z_]\w*)|([-+*/])|([()])|(,))/y;

function tokenize(expr: string): Token[] | string {
  const tokens: Token[] = [];
  tokenRe.lastIndex = 0;
  while (tokenRe.lastIndex < expr.length) {
    if (/^\s*$/.test(expr.slice(tokenRe.lastIndex))) break;
    const at = tokenRe.lastIndex;
    const m = tokenRe.exec(expr);
    if (!m) return `unexpected character ${JSON.stringify(expr.slice(at).trim()[0])}`;
    if (m[1] !== undefined) {
      const text = m[1] + (m[2] ?? '');
      if (m[2] && m[2] !== '%' && !isValidQuantity(text)) return `invalid quantity ${text}`;
      tokens.push({ kind: 'num', text });
    } else if (m[3] !== undefined) tokens.push({ kind: 'ident', text: m[3] });
    else if (m[4] !== undefined) tokens.push({ kind: 'op', text: m[4] });
    else if (m[5] !== undefined) tokens.push({ kind: 'paren', text: m[5] });
    else tokens.push({ kind: 'comma', text: ',' });
  }
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[], private readonly variable: string) {}

  parse(): string | undefined {
    const err = this.expr();
    if (err) return err;
    return this.pos < this.tokens.length ? `unexpected ${this.tokens[this.pos].text}` : undefined;
  }

  private peek(): Token | undefined { return this.tokens[this.pos]; }

  private expr(): string | undefined {
    return this.chain(['+', '-'], () => this.chain(['*', '/'], () => this.factor()));
  }

  private chain(ops: string[], operand: () => string | undefined): string | undefined {
    let err = operand();
    while (!err && this.peek()?.kind === 'op' && ops.includes(this.peek()!.text)) {
      this.pos++;
      err = operand();
    }
    return err;
  }

  private factor(): string | undefined {
    const t = this.tokens[this.pos++];
    if (!t) return 'unexpected end of expression';
    if (t.kind === 'num') return undefined;
    if (t.kind === 'paren' && t.text === '(') return this.expr() ?? this.expect(')');
    if (t.kind !== 'ident') return `unexpected ${t.text}`;
    if (t.text === 'max' || t.text === 'min') return this.call(t.text);
    return t.text === this.variable ? undefined : `unknown variable ${t.text}, only ${this.variable} is allowed`;
  }

  private call(name: string): string | undefined {
    const open = this.expect('(');
    if (open) return `${name} needs arguments in parentheses`;
    let args = 0;
    for (;;) {
      const err = this.expr();
      if (err) return err;
      args++;
      if (this.peek()?.kind !== 'comma') break;
      this.pos++;
    }
    if (args < 2) return `${name}() needs at least two arguments`;
    return this.expect(')');
  }

  private expect(text: string): string | undefined {
    if (this.peek()?.text !== text) return `expected ${text}`;
    this.pos++;
    return undefined;
  }
}

/** `variable` is `cpu` or `memory`, the resource the expression computes. */
export function resourceExpressionError(expr: string, variable: string): string | undefined {
  if (expr.trim() === '') return undefined;
  const tokens = tokenize(expr);
  if (typeof tokens === 'string') return tokens;
  return new Parser(tokens, variable).parse();
}
