/**
 * The lexer of the shell subset the interpreter reads (§9): words with their quoting and `$`
 * expansions kept as parts (variables resolve when the word runs, so `X=5; sleep $X` works),
 * control operators, and redirections dropped (they change where output goes, not how long a
 * command takes). Command substitution and here-documents make a word or script unpredictable.
 */
import { UnknownCommand } from './process.js';

/** A piece of a word: literal text, a variable (with `${X:-default}`), or something unpredictable. */
export type WordPart = string | { variable: string; fallback?: string } | { dynamic: string };

export interface Word {
  parts: WordPart[];
  /** Any part was quoted (so `do` in quotes is not a keyword). */
  quoted: boolean;
}

export type Operator = ';' | '\n' | '&&' | '||' | '|' | '&' | '(' | ')';
export type Token = { word: Word } | { op: Operator };

const operators: Operator[] = ['&&', '||', ';', '\n', '|', '&', '(', ')'];
const redirection = /^(\d*(>&|<&|>>?|<>?)|&>>?)/;
const nameStart = /[A-Za-z_]/;
const special = /[0-9@*#?$!-]/;

export function tokenize(script: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let dropNextWord = false;
  const push = (t: Token) => {
    if ('word' in t && dropNextWord) dropNextWord = false; // the target of a redirection
    else tokens.push(t);
  };
  while (i < script.length) {
    const c = script[i];
    if (c === ' ' || c === '\t' || (c === '\\' && script[i + 1] === '\n')) { i += c === '\\' ? 2 : 1; continue; }
    if (c === '#') { while (i < script.length && script[i] !== '\n') i++; continue; }
    if (script.startsWith('<<', i)) throw new UnknownCommand('here-document');
    const redirect = redirection.exec(script.slice(i));
    if (redirect) {
      i += redirect[0].length;
      if (/&$/.test(redirect[0]) && /^[\d-]/.test(script[i] ?? '')) i += /^\d+/.exec(script.slice(i))?.[0].length ?? 1;
      else dropNextWord = true;
      continue;
    }
    const op = operators.find((o) => script.startsWith(o, i));
    if (op) { push({ op }); i += op.length; continue; }
    const [word, end] = readWord(script, i);
    push({ word });
    i = end;
  }
  return tokens;
}

/** Reads one word from `start`; returns it and the index after it. */
function readWord(s: string, start: number): [Word, number] {
  const parts: WordPart[] = [];
  let quoted = false;
  let i = start;
  const text = (t: string) => (typeof parts.at(-1) === 'string' ? (parts[parts.length - 1] = (parts.at(-1) as string) + t) : parts.push(t));
  while (i < s.length && !/[\s;&|()<>]/.test(s[i])) {
    const c = s[i];
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) throw new UnknownCommand('unterminated quote');
      text(s.slice(i + 1, end));
      quoted = true;
      i = end + 1;
    } else if (c === '"') {
      quoted = true;
      i = readDoubleQuoted(s, i + 1, parts, text);
    } else if (c === '\\') {
      text(s[i + 1] ?? '');
      i += 2;
    } else if (c === '$' || c === '`') {
      i = readExpansion(s, i, parts, text);
    } else {
      text(c);
      i++;
    }
  }
  return [{ parts, quoted }, i];
}

function readDoubleQuoted(s: string, from: number, parts: WordPart[], text: (t: string) => void): number {
  let i = from;
  while (i < s.length && s[i] !== '"') {
    if (s[i] === '\\' && /[$`"\\\n]/.test(s[i + 1] ?? '')) { text(s[i + 1]); i += 2; } else if (s[i] === '$' || s[i] === '`') i = readExpansion(s, i, parts, text);
    else { text(s[i]); i++; }
  }
  if (i >= s.length) throw new UnknownCommand('unterminated quote');
  if (parts.length === 0) text(''); // "" is an empty word, not no word
  return i + 1;
}

/** `$NAME`, `${NAME}`, `${NAME:-x}`, `$1`, `$@`; `$(...)`, `$((...))` and backquotes are unpredictable. */
function readExpansion(s: string, i: number, parts: WordPart[], text: (t: string) => void): number {
  if (s[i] === '`') {
    const end = s.indexOf('`', i + 1);
    parts.push({ dynamic: s.slice(i, end + 1) });
    return end < 0 ? s.length : end + 1;
  }
  const next = s[i + 1] ?? '';
  if (next === '(') {
    let depth = 0;
    let j = i + 1;
    for (; j < s.length; j++) if (s[j] === '(') depth++; else if (s[j] === ')' && --depth === 0) break;
    parts.push({ dynamic: s.slice(i, j + 1) });
    return j + 1;
  }
  if (next === '{') {
    const end = s.indexOf('}', i);
    if (end < 0) throw new UnknownCommand('unterminated ${');
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?])(?::-(.*))?$/.exec(s.slice(i + 2, end));
    parts.push(m ? { variable: m[1], fallback: m[2] } : { dynamic: s.slice(i, end + 1) });
    return end + 1;
  }
  if (nameStart.test(next)) {
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i + 1))!;
    parts.push({ variable: m[0] });
    return i + 1 + m[0].length;
  }
  if (special.test(next)) {
    parts.push({ variable: next });
    return i + 2;
  }
  text('$');
  return i + 1;
}

/** The word as plain text when it has no expansions (keywords, assignments' names). */
export function literal(word: Word): string | undefined {
  return word.parts.every((p) => typeof p === 'string') ? word.parts.join('') : undefined;
}
