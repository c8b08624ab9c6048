/** What a TypeScript or JavaScript file imports (and re-exports): named, default and namespace imports. */
import { IDENTIFIER, type FileImports } from '../../syntax/bases.js';

export function readScriptImports(text: string, result: FileImports): void {
  for (const match of text.matchAll(/(?:^|[;\n])[ \t]*(?:import|export)[ \t]+(?:type[ \t]+)?([\s\S]*?)[ \t\n]*from[ \t\n]*['"]([^'"\n]+)['"]/g)) {
    const clause = match[1];
    const from = match[2];
    if (clause.length > 2000) continue;
    const braces = /\{([^}]*)\}/.exec(clause);
    if (braces) {
      for (const item of braces[1].split(',')) {
        const parts = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/);
        const imported = parts[0]?.trim();
        if (!imported || !IDENTIFIER.test(imported)) continue;
        result.names.push({ imported, local: (parts[1] ?? imported).trim(), from });
      }
    }
    const star = /\*\s+as\s+([\w$]+)/.exec(clause);
    if (star) result.modules.push({ local: star[1], from });
    const head = clause.replace(/\{[^}]*\}/, '').replace(/\*\s+as\s+[\w$]+/, '').split(',')[0]?.trim();
    if (head && IDENTIFIER.test(head) && head !== 'type') result.names.push({ imported: 'default', local: head, from });
  }
}
