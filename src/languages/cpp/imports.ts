/** What a C or C++ file brings in: `#include`s as written, `using a::B;` and `using namespace a::b;`. */
import type { FileImports } from '../../syntax/bases.js';

export function readCppImports(text: string, result: FileImports): void {
  for (const match of text.matchAll(/^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]/gm)) result.includes.push(match[1]);
  for (const match of text.matchAll(/\busing[ \t]+namespace[ \t]+((?:::)?[\w:]+)[ \t]*;/g)) result.usingNamespaces.push(match[1].replace(/^::/, ''));
  for (const match of text.matchAll(/\busing[ \t]+((?:::)?\w+(?:::\w+)+)[ \t]*;/g)) result.usings.push(match[1].replace(/^::/, ''));
}
