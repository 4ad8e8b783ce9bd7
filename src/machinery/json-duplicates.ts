/**
 * Duplicate object keys in a JSON text, as paths (`metadata.name`, `spec.containers[0].name`):
 * JSON.parse keeps the last value silently, while kube-apiserver's strict decoding reports each
 * duplicate (400 under fieldValidation=Strict, a warning under Warn). Malformed text ends the scan.
 */
export function duplicateFields(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++; };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    const raw = text.slice(start, i);
    // every write's body is scanned: decode only keys that carry escapes
    return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  };
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
  const value = (path: string): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      for (ws(); i < text.length && text[i] !== '}'; ws()) {
        if (text[i] === ',') { i++; ws(); }
        const key = str();
        if (seen.has(key)) out.push(join(path, key));
        seen.add(key);
        ws();
        i++; // colon
        value(join(path, key));
      }
      i++;
    } else if (c === '[') {
      i++;
      for (let n = 0; (ws(), i < text.length && text[i] !== ']'); n++) {
        if (text[i] === ',') i++;
        value(`${path}[${n}]`);
        ws();
        if (text[i] === ',') { i++; }
        else break;
      }
      ws();
      i++;
    } else if (c === '"') {
      str();
    } else {
      while (i < text.length && !',}] \t\n\r'.includes(text[i]!)) i++;
    }
  };
  try {
    value('');
  } catch {
    // not JSON after all: the decoder reports that; whatever was found so far stands
  }
  return out;
}
