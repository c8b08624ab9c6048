import type { Range } from '../../schemas/common.js';
import type { IndexSymbol } from '../../schemas/symbols.js';

/** A range on lines start..end, columns 1..2: enough for renderings. */
export function range(start: number, end = start): Range {
  return { start: { line: start, column: 1 }, end: { line: end, column: 2 } };
}

export function indexSymbol(fields: Partial<IndexSymbol> & Pick<IndexSymbol, 'name' | 'kind' | 'file' | 'line'>): IndexSymbol {
  return {
    id: `id-${fields.name}`,
    column: 1,
    range: range(fields.line),
    selectionRange: range(fields.line),
    containingType: null,
    qualifiedName: fields.name,
    signature: fields.name,
    parameters: [],
    returnType: null,
    package: 'pkg',
    language: 'cpp',
    definition: true,
    forwardDeclaration: false,
    external: false,
    doc: null,
    bases: [],
    ...fields,
  };
}
