/**
 * The JSON text an object was decoded from, for objects nobody modifies afterwards (the store's):
 * the store encodes each written object once for its WAL record, and the write's response, its watch
 * events and later reads reuse that text instead of encoding the object again
 * (docs/design/performance.md §13). A copy or a converted object has no text and is encoded anew.
 */
const texts = new WeakMap<object, string>();

/** Records `text` as the encoding of `obj` (JSON.stringify(obj)), which must never be modified. */
export function rememberJsonText(obj: object, text: string): void {
  texts.set(obj, text);
}

/** Stands in for a list's items while the rest of the list is encoded; encodes as itself. */
const itemsMark = '\u0001items\u0001';
const encodedItemsMark = `"items":${JSON.stringify(itemsMark)}`;

/** JSON.stringify(value), from the remembered texts of the value or of a list's items. */
export function jsonText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const known = texts.get(value);
  if (known !== undefined) return known;
  const items = (value as { items?: unknown }).items;
  if (!Array.isArray(items) || items.length === 0 || !texts.has(items[0] as object)) return JSON.stringify(value);
  // The list's own fields keep their order; its items are spliced in from their texts.
  const shell = JSON.stringify({ ...value, items: itemsMark });
  const at = shell.indexOf(encodedItemsMark);
  return `${shell.slice(0, at)}"items":[${items.map((item) => (item === undefined ? 'null' : jsonText(item))).join(',')}]${shell.slice(at + encodedItemsMark.length)}`;
}
