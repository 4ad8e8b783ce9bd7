/**
 * Parser for the Kubernetes JSONPath subset: dotted fields, `['quoted']` keys, `[*]`, indices,
 * unions of indices, slices, `[?(@.x == "y")]` filters and `..` recursive descent.
 */

export type FilterOperand = { kind: 'literal'; value: unknown } | { kind: 'path'; path: Segment[] };

export type Segment =
  | { kind: 'field'; name: string }
  | { kind: 'wildcard' }
  | { kind: 'index'; indices: number[] }
  | { kind: 'slice'; start?: number; end?: number; step?: number }
  | { kind: 'filter'; left: FilterOperand; op?: string; right?: FilterOperand }
  | { kind: 'recursive'; then: Segment };

const identChar = /[^\s.,[\]$\{}()|&!=<>]/;

class Parser {
  pos = 0;
  constructor(readonly src: string) {}

  fail(msg: string): never {
    throw new Error(`invalid JSONPath ${JSON.stringify(this.src)} at ${this.pos}: ${msg}`);
  }

  peek(n = 0): string {
    return this.src[this.pos + n] ?? '';
  }

  /** A field name; a backslash escapes the next character (`labels.kubernetes\.io/os`), as client-go's parser does. */
  ident(): string {
    const start = this.pos;
    while (this.pos < this.src.length && identChar.test(this.peek())) this.pos += this.peek() === '\\' ? 2 : 1;
    if (this.pos === start) this.fail('expected a field name');
    return this.src.slice(start, Math.min(this.pos, this.src.length)).replaceAll('\\', '');
  }

  /** Segments until the end of input or, inside a filter, a character that ends the operand. */
  segments(stopAt: RegExp | null): Segment[] {
    const out: Segment[] = [];
    while (this.pos < this.src.length && !(stopAt && stopAt.test(this.peek()))) {
      if (this.peek() === '.' && this.peek(1) === '.') {
        this.pos += 2;
        out.push({ kind: 'recursive', then: this.afterDot() });
      } else if (this.peek() === '.') {
        this.pos++;
        if (this.pos < this.src.length && this.peek() !== '[') out.push(this.afterDot());
      } else if (this.peek() === '[') {
        out.push(this.bracket());
      } else if (out.length === 0) {
        out.push({ kind: 'field', name: this.ident() });
      } else {
        this.fail(`unexpected ${JSON.stringify(this.peek())}`);
      }
    }
    return out;
  }

  afterDot(): Segment {
    if (this.peek() === '*') {
      this.pos++;
      return { kind: 'wildcard' };
    }
    if (this.peek() === '[') return this.bracket();
    return { kind: 'field', name: this.ident() };
  }

  bracket(): Segment {
    this.pos++; // [
    const close = (seg: Segment): Segment => {
      if (this.peek() !== ']') this.fail('expected ]');
      this.pos++;
      return seg;
    };
    const c = this.peek();
    if (c === '*') return (this.pos++, close({ kind: 'wildcard' }));
    if (c === "'" || c === '"') return close({ kind: 'field', name: this.quoted() });
    if (c === '?') return close(this.filter());
    const body = this.src.slice(this.pos, this.src.indexOf(']', this.pos));
    if (body === '' || this.src.indexOf(']', this.pos) < 0) this.fail('expected an index');
    this.pos += body.length;
    return close(body.includes(':') ? this.slice(body) : { kind: 'index', indices: body.split(',').map((s) => this.int(s)) });
  }

  int(text: string): number {
    const t = text.trim();
    if (!/^-?\d+$/.test(t)) this.fail(`bad index ${JSON.stringify(t)}`);
    return Number(t);
  }

  slice(body: string): Segment {
    const [a, b, c] = body.split(':').map((s) => s.trim());
    return { kind: 'slice', start: a ? this.int(a) : undefined, end: b ? this.int(b) : undefined, step: c ? this.int(c) : undefined };
  }

  quoted(): string {
    const q = this.peek();
    const end = this.src.indexOf(q, this.pos + 1);
    if (end < 0) this.fail('unterminated string');
    const s = this.src.slice(this.pos + 1, end);
    this.pos = end + 1;
    return s;
  }

  skipSpaces(): void {
    while (this.peek() === ' ') this.pos++;
  }

  filter(): Segment {
    this.pos++; // ?
    if (this.peek() !== '(') this.fail('expected ( after ?');
    this.pos++;
    this.skipSpaces();
    const left = this.operand();
    this.skipSpaces();
    let seg: Segment = { kind: 'filter', left };
    const op = /^(==|!=|<=|>=|<|>)/.exec(this.src.slice(this.pos))?.[0];
    if (op) {
      this.pos += op.length;
      this.skipSpaces();
      seg = { kind: 'filter', left, op, right: this.operand() };
      this.skipSpaces();
    }
    if (this.peek() !== ')') this.fail('expected )');
    this.pos++;
    return seg;
  }

  operand(): FilterOperand {
    const c = this.peek();
    if (c === '@') {
      this.pos++;
      return { kind: 'path', path: this.segments(/[\s=!<>)]/) };
    }
    if (c === "'" || c === '"') return { kind: 'literal', value: this.quoted() };
    const m = /^(-?\d+(\.\d+)?|true|false|null)/.exec(this.src.slice(this.pos));
    if (!m) this.fail('expected @, a string or a number');
    this.pos += m[0].length;
    return { kind: 'literal', value: JSON.parse(m[0]) as unknown };
  }
}

/** Parses a path like `{.status.conditions[?(@.type=="Ready")].status}`; braces and `$` optional. */
export function parseJsonPath(path: string): Segment[] {
  let src = path.trim();
  if (src.startsWith('{') && src.endsWith('}')) src = src.slice(1, -1).trim();
  if (src.startsWith('$')) src = src.slice(1);
  return new Parser(src).segments(null);
}
