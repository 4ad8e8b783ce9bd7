/**
 * The parser of the shell subset (§9): lists joined by `;`, newlines and `&`, and-or chains of
 * `&&`/`||`, pipelines (`!` negates), simple commands, `while`/`until`, `for ... in`, `if`, `{ }`
 * groups and `( )` subshells. Anything else (case, functions, arithmetic) is not understood.
 */
import { UnknownCommand } from './process.js';
import { literal, tokenize, type Operator, type Token, type Word } from './shell-words.js';

export type ShellNode =
  | { kind: 'list'; items: { node: ShellNode; background: boolean }[] }
  | { kind: 'andOr'; first: ShellNode; rest: { op: '&&' | '||'; node: ShellNode }[] }
  | { kind: 'pipeline'; negate: boolean; commands: ShellNode[] }
  | { kind: 'simple'; words: Word[] }
  | { kind: 'loop'; until: boolean; condition: ShellNode; body: ShellNode }
  | { kind: 'for'; items: Word[]; body: ShellNode }
  | { kind: 'if'; branches: { condition: ShellNode; body: ShellNode }[]; otherwise?: ShellNode }
  | { kind: 'group'; subshell: boolean; body: ShellNode };

/** Words that end a list when they start a command (so the enclosing compound command takes over). */
const closers = new Set(['do', 'done', 'then', 'elif', 'else', 'fi', '}']);
const unsupported = new Set(['case', 'esac', 'function', 'select', '[[', '((']);

export function parseScript(script: string): ShellNode {
  const parser = new Parser(tokenize(script));
  const list = parser.list();
  if (!parser.atEnd()) throw new UnknownCommand(`unexpected ${parser.describe()}`);
  return list;
}

class Parser {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  atEnd(): boolean { return this.at >= this.tokens.length; }

  describe(): string {
    const t = this.tokens[this.at];
    return !t ? 'end of script' : 'op' in t ? JSON.stringify(t.op) : JSON.stringify(literal(t.word) ?? 'word');
  }

  private op(): Operator | undefined {
    const t = this.tokens[this.at];
    return t && 'op' in t ? t.op : undefined;
  }

  /** The unquoted literal word at the cursor (a candidate keyword). */
  private keyword(): string | undefined {
    const t = this.tokens[this.at];
    return t && 'word' in t && !t.word.quoted ? literal(t.word) : undefined;
  }

  private expect(word: string): void {
    if (this.keyword() !== word) throw new UnknownCommand(`expected ${word}, found ${this.describe()}`);
    this.at++;
  }

  private skipNewlines(): void {
    while (this.op() === '\n') this.at++;
  }

  list(): ShellNode {
    const items: { node: ShellNode; background: boolean }[] = [];
    for (;;) {
      while (this.op() === '\n' || this.op() === ';') this.at++;
      if (this.atEnd() || this.op() === ')' || closers.has(this.keyword() ?? '')) break;
      const node = this.andOr();
      const background = this.op() === '&';
      items.push({ node, background });
      const sep = this.op();
      if (sep === ';' || sep === '\n' || sep === '&') this.at++;
      else break;
    }
    return { kind: 'list', items };
  }

  private andOr(): ShellNode {
    const first = this.pipeline();
    const rest: { op: '&&' | '||'; node: ShellNode }[] = [];
    for (let op = this.op(); op === '&&' || op === '||'; op = this.op()) {
      this.at++;
      this.skipNewlines();
      rest.push({ op, node: this.pipeline() });
    }
    return rest.length === 0 ? first : { kind: 'andOr', first, rest };
  }

  private pipeline(): ShellNode {
    const negate = this.keyword() === '!';
    if (negate) this.at++;
    const commands = [this.command()];
    while (this.op() === '|') {
      this.at++;
      this.skipNewlines();
      commands.push(this.command());
    }
    return !negate && commands.length === 1 ? commands[0] : { kind: 'pipeline', negate, commands };
  }

  private command(): ShellNode {
    const kw = this.keyword();
    if (this.op() === '(') return this.group(true);
    if (kw === '{') return this.group(false);
    if (kw === 'while' || kw === 'until') return this.loop(kw === 'until');
    if (kw === 'for') return this.forLoop();
    if (kw === 'if') return this.ifClause();
    if (kw !== undefined && unsupported.has(kw)) throw new UnknownCommand(`${kw} is not understood`);
    const words: Word[] = [];
    for (let t = this.tokens[this.at]; t && 'word' in t; t = this.tokens[++this.at]) words.push(t.word);
    if (words.length === 0) throw new UnknownCommand(`unexpected ${this.describe()}`);
    if (words.length > 1 && literal(words[1]) === '()') throw new UnknownCommand('functions are not understood');
    return { kind: 'simple', words };
  }

  private group(subshell: boolean): ShellNode {
    this.at++;
    const body = this.list();
    if (subshell) {
      if (this.op() !== ')') throw new UnknownCommand(`expected ), found ${this.describe()}`);
      this.at++;
    } else this.expect('}');
    return { kind: 'group', subshell, body };
  }

  private loop(until: boolean): ShellNode {
    this.at++;
    const condition = this.list();
    this.expect('do');
    const body = this.list();
    this.expect('done');
    return { kind: 'loop', until, condition, body };
  }

  private forLoop(): ShellNode {
    this.at += 2; // `for NAME`
    const items: Word[] = [];
    if (this.keyword() === 'in') {
      this.at++;
      for (let t = this.tokens[this.at]; t && 'word' in t; t = this.tokens[++this.at]) items.push(t.word);
    } else items.push({ parts: [{ variable: '@' }], quoted: false });
    while (this.op() === ';' || this.op() === '\n') this.at++;
    this.expect('do');
    const body = this.list();
    this.expect('done');
    return { kind: 'for', items, body };
  }

  private ifClause(): ShellNode {
    const branches: { condition: ShellNode; body: ShellNode }[] = [];
    let otherwise: ShellNode | undefined;
    do {
      this.at++; // `if` or `elif`
      const condition = this.list();
      this.expect('then');
      branches.push({ condition, body: this.list() });
    } while (this.keyword() === 'elif');
    if (this.keyword() === 'else') {
      this.at++;
      otherwise = this.list();
    }
    this.expect('fi');
    return { kind: 'if', branches, otherwise };
  }
}
