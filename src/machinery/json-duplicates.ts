/**
 * Duplicate object keys in a JSON text, as paths (`metadata.name`, `spec.containers[0].name`):
 * JSON.parse keeps the last value silently, while kube-apiserver's strict decoding reports each
 * duplicate (400 under fieldValidation=Strict, a warning under Warn). Malformed text ends the scan.
 * Every create and update body is scanned, so the scan reads char codes and keeps the path as a
 * stack of segments, joined only for a duplicate (docs/design/performance.md §17).
 */
import { joinPath } from './schema/types.js';

const [space, tab, newline, cr, quote, backslash, comma, openBrace, closeBrace, openBracket, closeBracket] =
  [' ', '\t', '\n', '\r', '"', '\\', ',', '{', '}', '[', ']'].map((c) => c.charCodeAt(0));

const isSpace = (c: number) => c === space || c === tab || c === newline || c === cr;

export function duplicateFields(text: string): string[] {
  const out: string[] = [];
  const path: (string | number)[] = [];
  const n = text.length;
  let i = 0;
  const ws = () => { while (i < n && isSpace(text.charCodeAt(i))) i++; };
  /** Passes a string; a key is cut out (decoded only if it carries escapes), a value only skipped. */
  const str = (key: boolean): string => {
    const start = i;
    let escaped = false;
    i++; // opening quote
    for (let c; i < n && (c = text.charCodeAt(i)) !== quote; i++) {
      if (c === backslash) { escaped = true; i++; }
    }
    i++;
    if (!key) return '';
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  };
  const value = (): void => {
    ws();
    const c = text.charCodeAt(i);
    if (c === openBrace) {
      i++;
      // most objects have a handful of keys: an array scan is cheaper than a Set per object
      let few: string[] | undefined = [];
      let many: Set<string> | undefined;
      for (ws(); i < n && text.charCodeAt(i) !== closeBrace; ws()) {
        if (text.charCodeAt(i) === comma) { i++; ws(); }
        const key = str(true);
        if (few ? few.includes(key) : many!.has(key)) out.push(joinPath([...path, key]));
        if (few && few.length >= 16) { many = new Set(few); few = undefined; }
        if (few) few.push(key);
        else many!.add(key);
        ws();
        i++; // colon
        path.push(key);
        value();
        path.pop();
      }
      i++;
    } else if (c === openBracket) {
      i++;
      for (let k = 0; (ws(), i < n && text.charCodeAt(i) !== closeBracket); k++) {
        if (text.charCodeAt(i) === comma) i++;
        path.push(k);
        value();
        path.pop();
        ws();
        if (text.charCodeAt(i) === comma) i++;
        else break;
      }
      ws();
      i++;
    } else if (c === quote) {
      str(false);
    } else {
      for (let d; i < n && (d = text.charCodeAt(i)) !== comma && d !== closeBrace && d !== closeBracket && !isSpace(d); i++);
    }
  };
  try {
    value();
  } catch {
    // not JSON after all: the decoder reports that; whatever was found so far stands
  }
  return out;
}
