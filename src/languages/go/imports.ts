/** What a Go file imports: one package per path, named by its alias or the path's last segment. */
import type { FileImports } from '../../syntax/bases.js';

export function readGoImports(text: string, result: FileImports): void {
  const add = (alias: string | undefined, from: string): void => {
    const local = alias && alias !== '_' && alias !== '.' ? alias : from.split('/').pop()!;
    result.modules.push({ local, from });
  };
  for (const block of text.matchAll(/^import[ \t]*\(([\s\S]*?)\)/gm)) {
    for (const line of block[1].matchAll(/^[ \t]*([\w.]+)?[ \t]*"([^"]+)"/gm)) add(line[1], line[2]);
  }
  for (const single of text.matchAll(/^import[ \t]+([\w.]+)?[ \t]*"([^"]+)"/gm)) add(single[1], single[2]);
}
