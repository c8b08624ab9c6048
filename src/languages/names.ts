/**
 * Small helpers the languages' rules share: qualified names split in segments, stored paths compared on
 * segment boundaries, a declaration's modifiers. Generic: no language's name appears here.
 */

/** `a::b::C` or `a.b.C` → ['a', 'b', 'C']. */
export function splitQualified(name: string): string[] {
  return name.split(/::|\./).filter((segment) => segment !== '');
}

export function endsWith(list: readonly string[], tail: readonly string[]): boolean {
  if (tail.length > list.length) return false;
  return tail.every((part, i) => list[list.length - tail.length + i] === part);
}

export function startsWith(list: readonly string[], head: readonly string[]): boolean {
  return head.length <= list.length && head.every((part, i) => list[i] === part);
}

/** The directory of a stored path (`a/b/c.py` → `a/b`; '' at the root). */
export function dirOf(file: string): string {
  const i = file.lastIndexOf('/');
  return i < 0 ? '' : file.slice(0, i);
}

/** Whether a stored path ends with a written path on a segment boundary (`include/gtest/gtest.h` ends with `gtest/gtest.h`). */
export function pathEndsWith(file: string, tail: string): boolean {
  const clean = tail.replace(/^\.\//, '');
  return file === clean || file.endsWith(`/${clean}`);
}

/** A declaration's signature up to its parameters or value: where its modifiers are written. */
export function modifiersOf(signature: string): string {
  const cut = signature.search(/[(=]/);
  return cut >= 0 ? signature.slice(0, cut) : signature;
}

/** `static` among a declaration's modifiers (C++, Java, C#, TypeScript). */
export function writtenStatic(signature: string): boolean {
  return /(^|[\s@\]])static\b/.test(modifiersOf(signature));
}
