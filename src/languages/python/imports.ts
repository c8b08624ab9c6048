/** What a Python file imports: `from m import a as b`, `import a.b as c`. */
import { IDENTIFIER, type FileImports } from '../../syntax/bases.js';

export function readPythonImports(text: string, result: FileImports): void {
  // Joined continuation lines and parenthesized name lists.
  const source = text.replace(/\\\r?\n/g, ' ');
  for (const match of source.matchAll(/^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)/gm)) {
    const from = match[1];
    for (const item of match[2].replace(/[()]/g, ' ').split(',')) {
      const parts = item.trim().split(/\s+as\s+/);
      const imported = parts[0]?.trim();
      if (!imported || !IDENTIFIER.test(imported)) continue;
      result.names.push({ imported, local: (parts[1] ?? imported).trim(), from });
    }
  }
  for (const match of source.matchAll(/^[ \t]*import[ \t]+([^\n#]+)/gm)) {
    for (const item of match[1].split(',')) {
      const parts = item.trim().split(/\s+as\s+/);
      const from = parts[0]?.trim();
      if (!from || !/^[\w.]+$/.test(from)) continue;
      result.modules.push({ local: (parts[1] ?? from).trim(), from });
    }
  }
}
