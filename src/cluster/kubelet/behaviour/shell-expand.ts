/**
 * Word expansion of the shell subset (§9): variables from the shell's known values (`$?` from the
 * last status), `"$@"` as one word per positional parameter, unquoted expansions split on blanks.
 * A part that is only known at run time (command substitution, an unset variable that might come
 * from the image or envFrom) marks the word dynamic; commands decide whether that matters.
 */
import type { Arg } from './commands.js';
import { literal, type Word } from './shell-words.js';

export function expandWord(word: Word, vars: ReadonlyMap<string, string>, status: number): Arg[] {
  const only = word.parts.length === 1 ? word.parts[0] : undefined;
  if (only && typeof only === 'object' && 'variable' in only && (only.variable === '@' || only.variable === '*')) {
    const count = Number(vars.get('#') ?? 0);
    return Array.from({ length: count }, (_, i) => ({ text: vars.get(String(i + 1)) ?? '', dynamic: false }));
  }
  let text = '';
  let dynamic = false;
  let split = false;
  for (const part of word.parts) {
    if (typeof part === 'string') text += part;
    else if ('dynamic' in part) dynamic = true;
    else {
      const value = part.variable === '?' ? String(status) : vars.get(part.variable) ?? part.fallback;
      if (value === undefined) dynamic = true;
      else { text += value; split = !word.quoted; }
    }
  }
  if (split && !dynamic) return text.split(/\s+/).filter(Boolean).map((t) => ({ text: t, dynamic }));
  return [{ text, dynamic }];
}

/** Leading `NAME=value` words of a simple command, and the words after them. */
export function splitAssignments(words: Word[], vars: ReadonlyMap<string, string>, status: number): { assignments: [string, Arg][]; rest: Word[] } {
  const assignments: [string, Arg][] = [];
  let i = 0;
  for (; i < words.length; i++) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(literal({ parts: words[i].parts.slice(0, 1), quoted: false }) ?? '');
    if (!m) break;
    const value = expandWord({ ...words[i], quoted: true }, vars, status)[0];
    assignments.push([m[1], { text: value.text.slice(m[0].length), dynamic: value.dynamic }]);
  }
  return { assignments, rest: words.slice(i) };
}

/** A value known only at run time makes the variable unknown again. */
export function setVariable(vars: Map<string, string>, name: string, value: Arg): void {
  if (value.dynamic) vars.delete(name);
  else vars.set(name, value.text);
}
