/**
 * Lexer and recursive-descent parser for the label selector grammar of apimachinery's labels.Parse,
 * producing the same requirements and the same error texts. Errors are thrown as plain Errors; the
 * public wrapper in labels.ts turns them into 400 BadRequest.
 */
import {
  keyError, newRequirement, type Operator, type Requirement,
} from './label-requirement.js';

type Tok = 'id' | 'in' | 'notin' | '!' | '!=' | '=' | '==' | '>' | '<' | '(' | ')' | ',' | 'end';
interface Token { tok: Tok; lit: string }

const SPECIAL = '=!(),><';
const SPACE = ' \t\r\n';

function lex(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  for (;;) {
    while (i < text.length && SPACE.includes(text[i])) i++;
    if (i >= text.length) return [...out, { tok: 'end', lit: '' }];
    if (SPECIAL.includes(text[i])) {
      // Longest match; `!=` and `==` are the only two-character symbols.
      let lit = text[i++];
      if ((lit === '!' || lit === '=') && text[i] === '=') lit += text[i++];
      out.push({ tok: lit as Tok, lit });
      continue;
    }
    const start = i;
    while (i < text.length && !SPACE.includes(text[i]) && !SPECIAL.includes(text[i])) i++;
    const lit = text.slice(start, i);
    out.push({ tok: lit === 'in' || lit === 'notin' ? lit : 'id', lit });
  }
}

const BINARY_OPS = 'in, notin, =, ==, !=, gt, lt';
const OPS: Partial<Record<Tok, Operator>> = { in: 'in', notin: 'notin', '=': '=', '==': '==', '!=': '!=', '>': 'gt', '<': 'lt' };

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  /** In value context the keywords `in`/`notin` are plain identifiers. */
  peek(values = true): Token {
    const t = this.tokens[this.pos];
    return values && (t.tok === 'in' || t.tok === 'notin') ? { tok: 'id', lit: t.lit } : t;
  }

  next(values = true): Token {
    const t = this.peek(values);
    if (t.tok !== 'end') this.pos++;
    return t;
  }
}

const fail = (msg: string): never => { throw new Error(msg); };

export function parseRequirements(text: string): Requirement[] {
  const p = new Parser(lex(text));
  const reqs: Requirement[] = [];
  for (;;) {
    const head = p.peek();
    if (head.tok === 'end') return reqs;
    if (head.tok !== 'id' && head.tok !== '!') fail(`found '${head.lit}', expected: !, identifier, or 'end of string'`);
    try {
      reqs.push(parseRequirement(p));
    } catch (e) {
      fail(`unable to parse requirement: ${(e as Error).message}`);
    }
    const sep = p.next();
    if (sep.tok === 'end') return reqs;
    if (sep.tok !== ',') fail(`found '${sep.lit}', expected: ',' or 'end of string'`);
    const after = p.peek();
    if (after.tok !== 'id' && after.tok !== '!') fail(`found '${after.lit}', expected: identifier after ','`);
  }
}

function parseRequirement(p: Parser): Requirement {
  let t = p.next();
  const absent = t.tok === '!';
  if (absent) t = p.next();
  if (t.tok !== 'id') fail(`found '${t.lit}', expected: identifier`);
  const key = t.lit;
  const bad = keyError(key, '<nil>');
  if (bad) fail(bad);
  const la = p.peek().tok;
  if (absent) return newRequirement(key, '!', []);
  if (la === 'end' || la === ',') return newRequirement(key, 'exists', []);
  const opTok = p.next(false);
  const op = OPS[opTok.tok] ?? fail(`found '${opTok.lit}', expected: ${BINARY_OPS}`);
  const values = op === 'in' || op === 'notin' ? parseValueSet(p) : parseExactValue(p);
  // labels.Parse hands NewRequirement a sorted, de-duplicated set.
  return newRequirement(key, op, [...new Set(values)].sort());
}

function parseExactValue(p: Parser): string[] {
  const la = p.peek();
  if (la.tok === 'end' || la.tok === ',') return [''];
  const t = p.next();
  return t.tok === 'id' ? [t.lit] : fail(`found '${t.lit}', expected: identifier`);
}

function parseValueSet(p: Parser): string[] {
  const open = p.next();
  if (open.tok !== '(') fail(`found '${open.lit}' expected: '('`);
  const la = p.peek();
  if (la.tok === ')') {
    p.next();
    return [''];
  }
  if (la.tok !== 'id' && la.tok !== ',') fail(`found '${la.lit}', expected: ',', ')' or identifier`);
  const vals = parseIdentifierList(p);
  // Upstream reports the token seen before the list here, not the one that failed.
  if (p.next().tok !== ')') fail(`found '${la.lit}', expected: ')'`);
  return vals;
}

/** Identifiers separated by commas; an empty slot (`(,a)`, `(a,,b)`, `(a,)`) is the empty value. */
function parseIdentifierList(p: Parser): string[] {
  const vals: string[] = [];
  for (;;) {
    const t = p.next();
    if (t.tok === 'id') {
      vals.push(t.lit);
      const la = p.peek();
      if (la.tok === ')') return vals;
      if (la.tok !== ',') fail(`found '${la.lit}', expected: ',' or ')'`);
    } else if (t.tok === ',') {
      if (vals.length === 0) vals.push('');
      const la = p.peek().tok;
      if (la === ')') return [...vals, ''];
      if (la === ',') {
        p.next();
        vals.push('');
      }
    } else {
      fail(`found '${t.lit}', expected: ',', or identifier`);
    }
  }
}
