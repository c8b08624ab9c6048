/**
 * plumb's definitions against universal-ctags', file by file, for C and C++: every tag ctags finds of
 * the kinds compared must be a symbol of a fitting kind, of the same name, whose declaration covers the
 * tag's line. ctags runs once over the file list and streams its tags (--sort=no keeps a file's tags
 * together), each file is extracted as its tags arrive, so a tree of any size is compared in bounded memory.
 *
 * ctags reads C without a preprocessor and gets some constructs wrong; those tags are set aside by
 * CTAGS_MISREADS, each rule with its reason, and counted per reason so the filter stays visible.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { NormalizedKind } from '../../src/kinds.js';
import type { ExtractedSymbol } from '../../src/syntax/types.js';
import { cppInText } from '../../src/languages/cpp/header-language.js';
import { languageById } from '../../src/languages/index.js';
import { extractSymbols, type SyntaxLanguage } from '../../src/syntax/index.js';
import type { Tag } from './recall.js';

const FUNCTIONS: readonly NormalizedKind[] = ['function', 'method', 'constructor'];

/**
 * ctags' C and C++ kinds compared, and the plumb kinds that find each. A prototype and a function are both
 * a function (plumb keeps the declaration and the definition, and the index merges them); a typedef of an
 * unnamed struct or enum is that type under the typedef's name.
 */
export const C_FAMILY_KINDS: Readonly<Record<string, readonly NormalizedKind[]>> = {
  function: FUNCTIONS,
  prototype: FUNCTIONS,
  class: ['class', 'struct'],
  struct: ['struct', 'class'],
  union: ['struct'],
  enum: ['enum'],
  enumerator: ['enum_member'],
  typedef: ['type_alias', 'struct', 'class', 'enum'],
  member: ['field'],
  macro: ['macro'],
  namespace: ['namespace'],
};

/** What the source says about a tag, for the rules that judge ctags' reading of it. */
export interface TagContext {
  tag: Tag;
  /** The file's lines (0-based: the tag's is lines[tag.line - 1]). */
  lines: string[];
  /** The names of the file's macros as ctags found them. */
  fileMacros: ReadonlySet<string>;
}

/** One kind of tag ctags gets wrong, with why; a tag one of these matches is not counted. */
export interface Misread {
  name: string;
  why: string;
  matches(context: TagContext): boolean;
}

export interface FileRecall {
  path: string;
  expected: number;
  found: number;
  misses: Tag[];
}

export interface KindRecall {
  expected: number;
  found: number;
}

export interface Comparison {
  files: FileRecall[];
  byKind: Map<string, KindRecall>;
  expected: number;
  found: number;
  /** Tags set aside as ctags' misreadings, per rule name. */
  setAside: Map<string, number>;
  symbols: number;
  extractMs: number;
  ctagsMs: number;
}

export interface CompareOptions {
  root: string;
  /** Paths relative to root. */
  files: string[];
  /** ctags options beyond the JSON output and prototypes (`--language-force=C`). */
  ctagsArgs: string[];
  /** The language each file is extracted as. */
  languageOf(path: string): SyntaxLanguage | undefined;
  /** Defaults to C_FAMILY_KINDS. */
  kinds?: Readonly<Record<string, readonly NormalizedKind[]>>;
  /** Defaults to CTAGS_MISREADS. */
  misreads?: readonly Misread[];
  /** Called for each tag set aside as a ctags misreading, with the rule's name. */
  onSetAside?(tag: Tag, rule: string): void;
  /** Called once per file, after its comparison (a progress line for a long run). */
  onFile?(file: FileRecall, done: number): void;
}

/** Runs ctags over the files and compares each file's tags with plumb's symbols of that file. */
export async function compareWithCtags(options: CompareOptions): Promise<Comparison> {
  const kinds = options.kinds ?? C_FAMILY_KINDS;
  const misreads = options.misreads ?? CTAGS_MISREADS;
  const result: Comparison = { files: [], byKind: new Map(), expected: 0, found: 0, setAside: new Map(), symbols: 0, extractMs: 0, ctagsMs: 0 };
  const kindList = Object.keys(kinds);
  for (const kind of kindList) result.byKind.set(kind, { expected: 0, found: 0 });
  const started = performance.now();
  const ctags = spawn('ctags', ['--output-format=json', '--fields=+nKzS', '--sort=no', '--kinds-C=+p', '--kinds-C++=+p', ...options.ctagsArgs, '-f', '-', '-L', '-'], {
    cwd: options.root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  ctags.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  ctags.stdin.end(options.files.join('\n'));
  const exited = new Promise<number | null>((resolve) => ctags.on('close', resolve));

  const compareFile = async (path: string, tags: Tag[]): Promise<void> => {
    const language = options.languageOf(path);
    if (!language) return;
    const source = readFileSync(join(options.root, path), 'utf8');
    const lines = source.split('\n');
    const fileMacros = new Set(tags.filter((tag) => tag.kind === 'macro').map((tag) => tag.name));
    const wanted = tags.filter((tag) => {
      if (!kinds[tag.kind] || tag.name.startsWith('__anon')) return false;
      const misread = misreads.find((rule) => rule.matches({ tag, lines, fileMacros }));
      if (misread) {
        result.setAside.set(misread.name, (result.setAside.get(misread.name) ?? 0) + 1);
        options.onSetAside?.(tag, misread.name);
      }
      return !misread;
    });
    const extractStart = performance.now();
    const symbols = await extractSymbols(language, source);
    result.extractMs += performance.now() - extractStart;
    result.symbols += symbols.length;
    const byName = new Map<string, ExtractedSymbol[]>();
    for (const symbol of symbols) {
      const name = normalize(symbol.name);
      const list = byName.get(name);
      if (list) list.push(symbol);
      else byName.set(name, [symbol]);
    }
    const file: FileRecall = { path, expected: wanted.length, found: 0, misses: [] };
    for (const tag of wanted) {
      const fits = kinds[tag.kind];
      const hit = (byName.get(normalize(tag.name)) ?? []).some((symbol) => fits.includes(symbol.kind)
        && tag.line >= symbol.range.start.line && tag.line <= symbol.selectionRange.start.line);
      const kind = result.byKind.get(tag.kind)!;
      kind.expected++;
      if (hit) {
        file.found++;
        kind.found++;
      } else {
        file.misses.push(tag);
      }
    }
    result.expected += file.expected;
    result.found += file.found;
    result.files.push(file);
    options.onFile?.(file, result.files.length);
  };

  let current: string | null = null;
  let pending: Tag[] = [];
  const seen = new Set<string>();
  for await (const line of createInterface({ input: ctags.stdout, crlfDelay: Infinity })) {
    if (!line.startsWith('{')) continue;
    const tag = JSON.parse(line) as Tag & { _type: string };
    if (tag._type !== 'tag') continue;
    if (tag.path !== current) {
      if (current !== null) await compareFile(current, pending);
      current = tag.path;
      pending = [];
      seen.add(current);
    }
    pending.push({ name: tag.name, path: tag.path, line: tag.line, kind: tag.kind, scope: tag.scope, pattern: tag.pattern });
  }
  if (current !== null) await compareFile(current, pending);
  const status = await exited;
  if (status !== 0) throw new Error(`ctags failed (${status}): ${stderr}`);
  result.ctagsMs = performance.now() - started - result.extractMs;
  // A file ctags found nothing in still counts (with nothing to find).
  for (const path of options.files) if (!seen.has(path)) result.files.push({ path, expected: 0, found: 0, misses: [] });
  return result;
}

/**
 * Whether the index reads a `.h` of a C tree as C++ (src/languages/cpp/header-language.ts): a C++ source of its name
 * beside it (scripts/kconfig/qconf.h beside qconf.cc), or text that is unmistakably C++ (scripts/gcc-plugins/*.h).
 */
export function cppHeaderInCTree(root: string, file: string): boolean {
  if (!file.endsWith('.h')) return false;
  if (['.cc', '.cpp', '.cxx', '.c++'].some((extension) => existsSync(join(root, file.slice(0, -2) + extension)))) return true;
  return cppInText(readFileSync(join(root, file), 'utf8'));
}

/**
 * The files of a C tree compared as the index reads them: each C file and C header as C, ctags forced to C; the headers
 * the index reads as C++ (cppHeaderInCTree) as C++, ctags forced to C++. `onFile` as compareWithCtags'.
 */
export async function compareCTree(root: string, files: string[], onFile?: CompareOptions['onFile']): Promise<Comparison & { cppHeaders: string[] }> {
  const cppHeaders = files.filter((file) => cppHeaderInCTree(root, file));
  const cpp = new Set(cppHeaders);
  const c = languageById('c');
  const cppLanguage = languageById('cpp');
  const asC = await compareWithCtags({ root, files: files.filter((file) => !cpp.has(file)), ctagsArgs: ['--language-force=C'], languageOf: () => c, onFile });
  const asCpp = await compareWithCtags({ root, files: cppHeaders, ctagsArgs: ['--language-force=C++'], languageOf: () => cppLanguage, onFile });
  return { ...mergeComparisons(asC, asCpp), cppHeaders };
}

/** One comparison of two made over different files (a tree's C files and its C++ headers, each read by ctags as what it is). */
export function mergeComparisons(a: Comparison, b: Comparison): Comparison {
  const byKind = new Map<string, KindRecall>();
  for (const [kind, recall] of [...a.byKind, ...b.byKind]) {
    const sum = byKind.get(kind) ?? { expected: 0, found: 0 };
    byKind.set(kind, { expected: sum.expected + recall.expected, found: sum.found + recall.found });
  }
  const setAside = new Map(a.setAside);
  for (const [rule, count] of b.setAside) setAside.set(rule, (setAside.get(rule) ?? 0) + count);
  return {
    files: [...a.files, ...b.files], byKind, expected: a.expected + b.expected, found: a.found + b.found, setAside,
    symbols: a.symbols + b.symbols, extractMs: a.extractMs + b.extractMs, ctagsMs: a.ctagsMs + b.ctagsMs,
  };
}

const normalize = (name: string): string => name.replace(/\s+/g, '');

const percent = (found: number, expected: number): string => (expected ? ((found / expected) * 100).toFixed(2) : '100.00');

/** One line: overall recall, the tags set aside, the time. */
export function describeComparison(result: Comparison): string {
  const aside = [...result.setAside].map(([name, count]) => `${name} ${count}`).join(', ');
  return `recall ${percent(result.found, result.expected)}% (${result.found}/${result.expected}) over ${result.files.length} files, `
    + `${result.symbols} symbols extracted in ${(result.extractMs / 1000).toFixed(1)} s; set aside as ctags misreadings: ${aside || 'none'}`;
}

/** Recall per ctags kind, one line each. */
export function describeKinds(result: Comparison): string {
  return [...result.byKind].filter(([, kind]) => kind.expected > 0)
    .map(([name, kind]) => `${name.padEnd(11)} ${percent(kind.found, kind.expected).padStart(6)}% (${kind.found}/${kind.expected})`).join('\n');
}

/** Every file below 100%, lowest first, with what it misses (up to `perFile` tags each). */
export function describeFiles(result: Comparison, perFile = 20): string {
  return filesBelow(result, 1).map((file) => {
    const misses = file.misses.slice(0, perFile).map((tag) => `    ${tag.line} ${tag.kind} ${tag.name}${tag.scope ? ` (in ${tag.scope})` : ''}`);
    const more = file.misses.length > perFile ? [`    ... ${file.misses.length - perFile} more`] : [];
    return [`  ${file.path}: ${percent(file.found, file.expected)}% (${file.found}/${file.expected})`, ...misses, ...more].join('\n');
  }).join('\n');
}

/** The files whose recall is below `threshold` (0..1), lowest first. */
export function filesBelow(result: Comparison, threshold: number): FileRecall[] {
  return result.files.filter((file) => file.expected > 0 && file.found / file.expected < threshold)
    .sort((a, b) => a.found / a.expected - b.found / b.expected || a.path.localeCompare(b.path));
}

/** Overall recall, 0..1. */
export function recallOfComparison(result: Comparison): number {
  return result.expected ? result.found / result.expected : 1;
}

/** The code of a line: its `//` comment and trailing `/* ... *\/` cut, trimmed. */
function codeOf(line: string): string {
  return line.replace(/\/\/.*$/, '').replace(/\/\*.*?\*\//g, '').trim();
}

/** The line a logical line (backslash continuations joined) starts at, for the line at `index`. */
function logicalStart(lines: string[], index: number): number {
  let start = index;
  while (start > 0 && /\\\s*$/.test(lines[start - 1])) start--;
  return start;
}

/**
 * What ends the code before line `index`: the last character of the nearest line above that holds code
 * (comments, blank lines and directives skipped), '::' for a qualified name going on, '' at the start of the file.
 */
function codeEndAbove(lines: string[], index: number): string {
  let inComment = false;
  for (let i = index - 1; i >= 0; i--) {
    const raw = lines[i].trim();
    if (inComment) {
      if (raw.includes('/*')) inComment = false;
      const before = raw.slice(0, raw.indexOf('/*')).trim();
      if (!inComment && before) return before[before.length - 1];
      continue;
    }
    if (raw.endsWith('*/') && !raw.includes('/*')) {
      inComment = true;
      continue;
    }
    const start = logicalStart(lines, i);
    if (lines[start].trim().startsWith('#')) {
      i = start;
      continue;
    }
    const code = codeOf(raw);
    if (!code || code.startsWith('*') || code.startsWith('/*')) continue;
    // A scope macro alone on its line (`PR_BEGIN_EXTERN_C`, `__BEGIN_DECLS`, `BTF_SET_START(hooks)`) ends what is before it.
    if (/^_*[A-Z][A-Z0-9]*_[A-Z0-9_]*(\s*\([^()]*\))?$/.test(code)) return ';';
    return code.endsWith('::') ? '::' : code[code.length - 1];
  }
  return '';
}

/** A constructor, destructor or conversion operator: a member declared without a type. */
function declaresItself(tag: Tag): boolean {
  const owner = tag.scope?.split(/::|\./).pop();
  return owner !== undefined && (tag.name === owner.replace(/<.*$/, '') || tag.name.startsWith('~') || tag.name.startsWith('operator'));
}

const escape = (name: string): string => name.replace(/[$^*+?.()|[\]{}\\]/g, '\\$&');

/**
 * Whether two `(` follow the first `name` in the line: what a pattern of the name, a parenthesized list and another `(`
 * needs (any later `name` has fewer after it), checked before such a pattern is made for every tag of a large tree.
 */
function twoParensAfter(line: string, name: string): boolean {
  const at = line.indexOf(name);
  if (at < 0) return false;
  const open = line.indexOf('(', at + name.length);
  return open >= 0 && line.indexOf('(', open + 1) >= 0;
}

/**
 * What a file's lines hold anywhere, read once per file (the rules below ask for every tag): an assembler `.macro`, the word
 * `requires` (in the text, or in a line's code once a comment that split the word is cut).
 */
const fileFacts = new WeakMap<string[], { assemblerMacros: boolean; requires: boolean }>();
function factsOf(lines: string[]): { assemblerMacros: boolean; requires: boolean } {
  let facts = fileFacts.get(lines);
  if (!facts) {
    facts = { assemblerMacros: lines.some((line) => /^\s*\.macro\b/.test(line)), requires: lines.some((line) => line.includes('requires') || (line.includes('*/') && codeOf(line).includes('requires'))) };
    fileFacts.set(lines, facts);
  }
  return facts;
}

/** Where `name` stands as a whole word followed by `(` in the line; -1 when it does not. */
function nameAt(line: string, name: string): number {
  return line.search(new RegExp(`(?<![\\w$])${escape(name)}\\s*\\(`));
}

/**
 * Tags universal-ctags reads wrongly from C and C++ without a preprocessor. Each is a reading no compiler
 * makes of the text, so plumb should not find it.
 */
export const CTAGS_MISREADS: readonly Misread[] = [
  {
    name: 'macro-call-as-function',
    why: 'A call of a macro of the same file (`DEFINE_MUTEX(x);`, `TEST(A, B) {`) is read as a function or prototype named after the macro.',
    matches: ({ tag, fileMacros }) => (tag.kind === 'function' || tag.kind === 'prototype') && fileMacros.has(tag.name),
  },
  {
    name: 'untyped-call-as-function',
    why: 'A statement that starts with the name and has no type before it, storage keywords aside (`EXPORT_SYMBOL(f);`, '
      + '`SYSCALL_DEFINE3(open, ...) {`, `static DEFINE_MUTEX(lock);`, `MOCK_METHOD1(F, int(int));` in a class) is a macro call: C has '
      + 'had no implicit int since C99, and in C++ only a constructor, destructor or conversion operator is declared without a type.',
    matches: ({ tag, lines }) => {
      if (tag.kind !== 'function' && tag.kind !== 'prototype') return false;
      if (declaresItself(tag)) return false;
      const line = lines[tag.line - 1] ?? '';
      const at = nameAt(line, tag.name);
      let prefix = at < 0 ? '' : codeOf(line.slice(0, at));
      if (at < 0 || (prefix && !STORAGE_WORDS.test(`${prefix} `))) return false;
      // The storage words alone on the line above (`static` / `DEFINE_PER_CPU_SHARED_ALIGNED(struct x, y);`): the statement starts there.
      let start = tag.line - 1;
      if (!prefix && start > 0 && STORAGE_WORDS.test(`${codeOf(lines[start - 1])} `)) prefix = codeOf(lines[--start]);
      const above = codeEndAbove(lines, start);
      // After a macro call that ends its line without `;` (`module_init(f)` / `module_exit(g)`, `__iwl_fn(warn)` /
      // `IWL_EXPORT_SYMBOL(__iwl_warn);`, `if (!pid)` / `access_mem(ptr);`), the name first on its line: a call too.
      return [';', '{', '}', ':', ''].includes(above) || (above === ')' && !prefix);
    },
  },
  {
    name: 'call-in-expression',
    why: 'A call inside an expression (`static_assert(ARRAY_SIZE(a) == N);`, `x =\n IS_ENABLED(CONFIG_Y);`, `MODULE_ALIAS("x" __stringify(Y));`, '
      + '`*membase = (void __iomem *) KSEG1ADDR(OFFSET);`, `*p = &kvm_nvhe_sym(x);`) is read as a prototype: what stands before the name is an operator, '
      + 'an open parenthesis, a comma, a string, a cast after `=` or an address-of after `=`, `(` or `,`, never a type.',
    matches: ({ tag, lines }) => {
      if (tag.kind !== 'function' && tag.kind !== 'prototype') return false;
      const line = lines[tag.line - 1] ?? '';
      const at = nameAt(line, tag.name);
      if (at < 0) return false;
      const before = codeOf(line.slice(0, at));
      const end = before ? before[before.length - 1] : codeEndAbove(lines, tag.line - 1);
      if (/[=(,]\s*&$/.test(before) || /=\s*\([^()]*\)$/.test(before)) return true;
      return '(=,!|?+-"%^'.includes(end) && end !== '';
    },
  },
  {
    name: 'macro-built-name',
    why: 'A function whose name a macro builds (`static int IPSET_TOKEN(MTYPE, _kadt)(struct ip_set *set, ...)`) has no name in the text; '
      + 'ctags names it after the macro.',
    matches: ({ tag, lines }) => (tag.kind === 'function' || tag.kind === 'prototype') && twoParensAfter(lines[tag.line - 1] ?? '', tag.name)
      && new RegExp(`(?<![\\w$])${escape(tag.name)}\\s*\\([^()]*\\)\\s*\\(`).test(lines[tag.line - 1] ?? ''),
  },
  {
    name: 'attribute-call-as-prototype',
    why: 'An attribute macro after a declarator (`unsigned long consumer_pos __aligned(PAGE_SIZE);`, `char page[N] __aligned(N);`, '
      + '`pgd_t tmp_pgd_table[N] __initdata __aligned(PGD_SIZE);`, a typedef\'s `typedef int SItype __mode(SI);`) is read as a prototype '
      + '(or a typedef) named after the attribute: a declarator (a name, or `]` and attribute words) stands right before it, after a type.',
    matches: ({ tag, lines }) => {
      const line = lines[tag.line - 1] ?? '';
      if (tag.kind !== 'function' && tag.kind !== 'prototype' && !(tag.kind === 'typedef' && /^\s*typedef\b/.test(line))) return false;
      const at = nameAt(line, tag.name);
      if (at < 0 || !/^(__\w*|_*[A-Z][A-Z0-9_]*)$/.test(tag.name)) return false;
      // Alone on its line, the declarator ends the line above (`pud_t espfix_pud_page[PTRS_PER_PUD]` / `__aligned(PAGE_SIZE);`).
      const before = codeOf(line.slice(0, at)) || (/^\s*$/.test(line.slice(0, at)) && tag.line > 1 ? codeOf(lines[tag.line - 2]) : '');
      const open = line.indexOf('(', at);
      let close = open;
      for (let depth = 0; close < line.length; close++) {
        if (line[close] === '(') depth++;
        else if (line[close] === ')' && --depth === 0) break;
      }
      const parameters = parameterLike(line.slice(open + 1, close));
      return !parameters && (/\](\s+__\w+(\s*\([^()]*\))?)*$/.test(before) || /\w\s*[*\s]\s*\w+$/.test(before));
    },
  },
  {
    name: 'wrapper-as-function',
    why: "A macro around the declarator (glibc's `ssize_t __NTH (readlink (const char *path, ...))`) is read as the function: the name is inside it.",
    matches: ({ tag, lines }) => {
      if ((tag.kind !== 'function' && tag.kind !== 'prototype') || !/^_*[A-Z][A-Z0-9_]*$/.test(tag.name)) return false;
      const inner = new RegExp(`(?<![\\w$])${escape(tag.name)}\\s*\\(\\s*([A-Za-z_]\\w*)\\s*\\(`).exec(lines[tag.line - 1] ?? '');
      return !!inner && !TYPE_KEYWORDS.has(inner[1]);
    },
  },
  {
    name: 'type-macro-as-function',
    why: 'A macro standing for the return type (`PyAPI_FUNC(int) PySys_SetObject(const char *, PyObject *);`) is read as the function: '
      + 'the name follows it on its line.',
    matches: ({ tag, lines }) => {
      if ((tag.kind !== 'function' && tag.kind !== 'prototype') || !twoParensAfter(lines[tag.line - 1] ?? '', tag.name)) return false;
      // The macro's argument is one type (`int`, `PyObject *`, `const char *`), not a parameter list.
      const next = new RegExp(`(?<![\\w$])${escape(tag.name)}\\s*\\(\\s*((?:const\\s+|struct\\s+|unsigned\\s+|signed\\s+)*\\w+(?:\\s*\\*)*)\\s*\\)\\s*[*&]*\\s*([A-Za-z_]\\w*)\\s*\\(`)
        .exec(lines[tag.line - 1] ?? '');
      return !!next && !AFTER_PARAMETERS.has(next[2]);
    },
  },
  {
    name: 'calling-convention-as-member',
    why: 'A calling-convention macro in a function-pointer member (`CK_RV (PR_CALLBACK *Initialize)(...)`) is read as the member.',
    matches: ({ tag, lines }) => tag.kind === 'member' && new RegExp(`\\(\\s*${escape(tag.name)}\\s*\\*`).test(lines[tag.line - 1] ?? ''),
  },
  {
    name: 'macro-call-as-enumerator',
    why: 'An enumerator a macro makes (`V4L2_MBUS_FROM_MEDIA_BUS_FMT(FIXED),`) is read as an enumerator named after the macro.',
    matches: ({ tag, lines }) => tag.kind === 'enumerator' && nameAt(lines[tag.line - 1] ?? '', tag.name) >= 0,
  },
  {
    name: 'type-macro-as-name',
    why: 'A macro standing for the return type on a line of its own (`PR_EXTERN(PRUint32)` above `PL_strlen(const char *str);`) '
      + 'is read as the function: the name is on the next line.',
    matches: ({ tag, lines }) => {
      if ((tag.kind !== 'function' && tag.kind !== 'prototype') || declaresItself(tag)) return false;
      const line = codeOf(lines[tag.line - 1] ?? '');
      const match = new RegExp(`^((?:static|extern|inline|const)\\s+)*${escape(tag.name)}\\s*\\([^()]*\\)$`).exec(line);
      return !!match && /^\s*[A-Za-z_]\w*\s*\(/.test(lines[tag.line] ?? '') && [';', '{', '}', ''].includes(codeEndAbove(lines, tag.line - 1));
    },
  },
  {
    name: 'attribute-as-typedef',
    why: 'A typedef with an attribute macro call before its type (`typedef __printf(2, 3) void (*print_t)(...)`), or a macro that makes the whole '
      + 'typedef (`typedef BPF_DECLARE_PERCPU(int, value);`, its name one of the arguments), is read as a typedef named after the macro.',
    matches: ({ tag, lines }) => tag.kind === 'typedef'
      && new RegExp(`\\btypedef\\s+${escape(tag.name)}\\s*\\([^()]*\\)\\s*[\\w;]`).test(lines[tag.line - 1] ?? ''),
  },
  {
    name: 'attribute-as-member',
    why: 'A field or typedef with an attribute macro after its name (`struct atm_trafprm rxtp __ATM_API_ALIGN;`, `char name __flexarr;`, '
      + '`typedef unsigned int t _GNUTLS_GCC_ATTR_DEPRECATED;`, X11\'s bit-field macro in `CARD32 length B32;`, `int b __tag1 __tag2;` where '
      + 'the file says `#define __tag2 __attribute__((btf_decl_tag("tag2")))`) is read as named after the macro: the last word before the `;`, '
      + 'named as attribute macros are or a macro the file defines as an attribute (every `#define` of it empty, an `__attribute__` or an '
      + 'attribute word), after a word that is no type keyword.',
    matches: ({ tag, lines, fileMacros }) => {
      if ((tag.kind !== 'member' && tag.kind !== 'typedef') || !(ATTRIBUTE_NAME.test(tag.name) || (fileMacros.has(tag.name) && attributeMacro(lines, tag.name)))) return false;
      // The line and the one above (a declaration over two lines).
      const line = `${codeOf(lines[tag.line - 2] ?? '')} ${codeOf(lines[tag.line - 1] ?? '')}`;
      // A type, then the member's name, then the macro: two words before it, the type not a keyword's tag.
      const match = new RegExp(`\\b(\\w+)\\s+(\\w+)\\s+${escape(tag.name)}\\s*[;,]`).exec(line);
      return !!match && !TYPE_KEYWORDS.has(match[2]) && !['struct', 'union', 'enum', 'class', 'typedef', 'const', 'volatile'].includes(match[1]);
    },
  },
  {
    name: 'visibility-macro-as-type',
    why: 'A nested type declared with a visibility macro (`struct U_HIDDEN Sink;`) is read as a member `Sink` of type `struct U_HIDDEN`.',
    matches: ({ tag, lines }) => tag.kind === 'member'
      && new RegExp(`^\\s*(struct|class|union)\\s+[A-Z][A-Z0-9]*_[A-Z0-9_]*\\s+${tag.name}\\s*;`).test(lines[tag.line - 1] ?? ''),
  },
  {
    name: 'enum-typed-variable-as-enum',
    why: 'A variable of an enum type with an initializer (`static enum power_supply_property bq27000_props[] = { POWER_SUPPLY_PROP_STATUS, ... };`, '
      + '`const enum fe_modulation modcod2mod[0x20] = { QPSK, ... };`) is read as an enum named after the variable, and the constants of its '
      + 'initializer as that enum\'s enumerators: a name after `enum Tag` is a declarator (an enum is defined as `enum Tag {`), the constants are uses.',
    matches: ({ tag, lines }) => {
      if (tag.kind === 'enum') return enumTypedVariables(lines).has(tag.name);
      if (tag.kind !== 'enumerator' || !tag.scope) return false;
      return enumTypedVariables(lines).has(tag.scope.split('::').pop()!);
    },
  },
  {
    name: 'initialized-wrapper-as-prototype',
    why: 'A macro around a variable\'s name (`int __bootdata(is_full_image) = 1;`) is read as a prototype named after the macro: what it '
      + 'declares is initialized with `=`, which no function is (a pure virtual\'s `= 0`, `= delete` and `= default` aside).',
    matches: ({ tag, lines }) => (tag.kind === 'function' || tag.kind === 'prototype') && (lines[tag.line - 1] ?? '').includes('=')
      && new RegExp(`\\w[\\s*]+${escape(tag.name)}\\s*\\(\\s*[A-Za-z_]\\w*\\s*\\)\\s*=(?!=)(?!\\s*(?:0\\s*;|delete\\b|default\\b))`).test(codeOf(lines[tag.line - 1] ?? '')),
  },
  {
    name: 'attribute-after-typedef-declarator',
    why: 'An attribute macro after a function typedef\'s parameter list (`typedef void (*relocate_t)(unsigned long a,` / `unsigned long b) __noreturn;`) '
      + 'is read as the typedef\'s name: the word stands between the `)` and the `;`, spelled as attribute macros are, in a typedef.',
    matches: ({ tag, lines }) => {
      if (tag.kind !== 'typedef' || !/^__\w+$/.test(tag.name) || !new RegExp(`\\)\\s*${escape(tag.name)}\\s*;`).test(codeOf(lines[tag.line - 1] ?? ''))) return false;
      // The statement it ends starts with `typedef` (a few lines up at most).
      for (let i = tag.line - 1; i >= 0 && i >= tag.line - 12; i--) {
        const code = codeOf(lines[i] ?? '');
        if (i < tag.line - 1 && /[;{}]$/.test(code)) return false;
        if (/^typedef\b/.test(code)) return true;
      }
      return false;
    },
  },
  {
    name: 'unnamed-bit-field-as-member',
    why: 'An unnamed bit-field (`unsigned long : 2;`, `unsigned int :28, second2:4;`, `u32 :4;`) is padding, no member; ctags names it '
      + 'after its type\'s last word: the name stands right before the `:` width and is a type keyword, or the only word of the declaration.',
    matches: ({ tag, lines }) => {
      if (tag.kind !== 'member') return false;
      const code = codeOf(lines[tag.line - 1] ?? '');
      const at = code.search(new RegExp(`(?<![\\w$])${escape(tag.name)}\\s*:(?!:)\\s*\\w`));
      if (at < 0) return false;
      const before = code.slice(0, at).replace(/.*[;{]/, '').trim();
      // The only word: a declaration starts there (not a name whose type ends the line above).
      return TYPE_KEYWORDS.has(tag.name) || ((before === '' || /^(const|volatile)$/.test(before)) && (before !== '' || [';', '{', '}'].includes(codeEndAbove(lines, tag.line - 1))));
    },
  },
  {
    name: 'attribute-after-body-as-member',
    why: 'An attribute word after the body of an unnamed struct or union member (`struct { ... } __packed;`) is read as that member\'s name; '
      + 'the word stands alone between the `}` and the `;`, named as attribute macros are.',
    matches: ({ tag, lines }) => tag.kind === 'member' && ATTRIBUTE_NAME.test(tag.name)
      && new RegExp(`^\\}\\s*${escape(tag.name)}\\s*;`).test(codeOf(lines[tag.line - 1] ?? '')),
  },
  {
    name: 'macro-list-as-enumerator',
    why: 'A macro that expands to a list of enumerators (`enum brcmf_feat_id {` / `BRCMF_FEAT_LIST` / `BRCMF_FEAT_LAST` / `};`) is read as an '
      + 'enumerator named after it: an enumerator is followed by `,`, `=` or `}`, and this name by the next enumerator\'s.',
    matches: ({ tag, lines }) => {
      if (tag.kind !== 'enumerator') return false;
      const line = codeOf(lines[tag.line - 1] ?? '');
      const match = new RegExp(`(?<![\\w$])${escape(tag.name)}(?![\\w$])\\s*(.*)$`).exec(line);
      if (!match) return false;
      if (match[1]) return /^[A-Za-z_]/.test(match[1]);
      // The name ends its line: the next line of code (comments skipped) starts with a name. A directive between them
      // (`PeripheralClass` / `#else` / `AdapterClass,`) makes the name a branch's last enumerator: not this rule's.
      for (let i = tag.line; i < lines.length && i < tag.line + 8; i++) {
        const next = codeOf(lines[i]);
        if (next && !next.startsWith('*') && !next.startsWith('/*')) return /^[A-Za-z_]/.test(next);
      }
      return false;
    },
  },
  {
    name: 'assembly-as-prototype',
    why: 'Assembler in a header (arch/arc/include/asm/entry-arcv2.h\'s `.macro __SAVE_REGFILE_SOFT` ... `.endm`, for `__ASSEMBLY__`) is read '
      + 'as C: its `;` comments (`ST2 gp, fp, PT_r26 ; gp (r26), fp (r27)`) give prototypes. Between `.macro` and `.endm` nothing is C.',
    matches: ({ tag, lines }) => {
      if ((tag.kind !== 'function' && tag.kind !== 'prototype') || !factsOf(lines).assemblerMacros) return false;
      for (let i = tag.line - 2; i >= 0 && i >= tag.line - 400; i--) {
        const code = lines[i].trim();
        if (/^\.endm\b/.test(code)) return false;
        if (/^\.macro\b/.test(code)) return true;
      }
      return false;
    },
  },
  {
    name: 'attribute-call-above-declarator',
    why: 'An annotation call ending the line above the function\'s name (`void __acquires(wait_entry)` / `iwl_init_notification_wait(...);`, '
      + 'sparse\'s lock annotations) is read as the function: the name starting the next line, followed by its parameters, is the declarator; '
      + 'the call is spelled as attribute macros are (`__` and a word) after a type.',
    matches: ({ tag, lines }) => {
      if ((tag.kind !== 'function' && tag.kind !== 'prototype') || !/^__[a-z]\w*$/.test(tag.name)) return false;
      const line = codeOf(lines[tag.line - 1] ?? '');
      const match = new RegExp(`^(.*\\w)\\s+${escape(tag.name)}\\s*\\(([^()]*)\\)$`).exec(line);
      // Its arguments are no parameter list (`static void __lock_sock(struct sock *sk)` above `__releases(&sk->sk_lock.slock)` is the function).
      return !!match && !/[;{}=(]/.test(match[1]) && !parameterLike(match[2]) && /^\s*[A-Za-z_]\w*\s*\(/.test(lines[tag.line] ?? '');
    },
  },
  {
    name: 'extern-as-typedef',
    why: 'After a function typedef (`typedef struct mtd_info *cfi_cmdset_fn_t(struct map_info *, int);`, `typedef enum probes_insn (kprobe_decode_insn_t)(...);`) '
      + 'ctags reads a later `extern` declaration (`extern cfi_cmdset_fn_t cfi_cmdset_0001;`) as a typedef: a statement starting with `extern` and '
      + 'holding no `typedef` declares no type.',
    matches: ({ tag, lines }) => {
      if (tag.kind !== 'typedef') return false;
      const line = codeOf(lines[tag.line - 1] ?? '');
      return /^extern\b/.test(line) && !/\btypedef\b/.test(line) && [';', '{', '}', ''].includes(codeEndAbove(lines, tag.line - 1));
    },
  },
  {
    name: 'requires-type-as-member',
    why: 'A type requirement of a C++20 requires-expression (`requires { typename _Tp::difference_type; }`, `typename _Iter::value_type;` in a '
      + 'concept\'s body) is read as a member of the template parameter: the qualified name stands after `typename` with no declarator after '
      + 'it, so it declares nothing.',
    matches: ({ tag, lines }) => tag.kind === 'member'
      && new RegExp(`\\btypename\\s+[\\w:<>,\\s&*]*::\\s*${escape(tag.name)}\\s*[;}]`).test(codeOf(lines[tag.line - 1] ?? '')),
  },
  {
    name: 'requirement-as-prototype',
    why: 'A simple requirement of a C++20 requires-expression (`requires(_Tp& __t) { ranges::begin(__t); }`, `__b.resize(__s);`) is read as a '
      + 'prototype: inside a requires-expression\'s braces every statement is an expression to check, none a declaration.',
    matches: ({ tag, lines }) => (tag.kind === 'function' || tag.kind === 'prototype') && factsOf(lines).requires && insideRequiresBody(lines, tag),
  },
  {
    name: 'template-argument-as-enumerator',
    why: 'A template argument in an enumerator\'s value (`null_update = is_same<__node_u, __nnode_u>::value` in pb_ds\' node_metadata_selector.hpp) '
      + 'is read as one more enumerator: ctags parts the value at the comma inside the `<...>`.',
    matches: ({ tag, lines }) => tag.kind === 'enumerator'
      && new RegExp(`=[^;{}=]*<[^<>;{}]*,\\s*${escape(tag.name)}\\s*[,>]`).test(codeOf(lines[tag.line - 1] ?? '')),
  },
  {
    name: 'keyword-typedef-as-type',
    why: 'A C typedef of a type C++ has as a keyword (`typedef __uint_least16_t char16_t;` in uchar.h, for C only) is read, as C++, as a typedef '
      + 'named after its type: the name is the keyword that ends it.',
    matches: ({ tag, lines }) => tag.kind === 'typedef'
      && new RegExp(`^typedef\\s+${escape(tag.name)}\\s+(char8_t|char16_t|char32_t|wchar_t|bool)\\s*;`).test(codeOf(lines[tag.line - 1] ?? '')),
  },
];

/** Whether the tag's name stands inside the braces of a requires-expression (`requires (T t) {` ... `}`), read up to 60 lines back. */
function insideRequiresBody(lines: string[], tag: Tag): boolean {
  const line = lines[tag.line - 1] ?? '';
  const at = nameAt(line, tag.name);
  if (at < 0) return false;
  let depth = 0;
  for (let i = tag.line - 1; i >= 0 && i >= tag.line - 60; i--) {
    const code = codeOf(i === tag.line - 1 ? line.slice(0, at) : lines[i]);
    for (let j = code.length - 1; j >= 0; j--) {
      if (code[j] === '}') depth++;
      else if (code[j] === '{' && depth-- === 0) {
        // The open brace: what stands before it (on its line, or the line above) is `requires` and a parameter list, or `requires` alone.
        const before = `${i > 0 ? codeOf(lines[i - 1]) : ''} ${code.slice(0, j)}`;
        return /\brequires\s*(\([^;{}]*\))?\s*$/.test(before);
      }
    }
  }
  return false;
}

/**
 * Every `#define` of `name` in the file makes an attribute: empty, an `__attribute__((...))`, or a word named as attribute macros are
 * (`#define __module_layout_align ____cacheline_aligned`); not `#define __hc32 __le32` (a type) or `#define ulpContext un.ulpWord[4]`.
 */
function attributeMacro(lines: string[], name: string): boolean {
  const define = new RegExp(`^\\s*#\\s*define\\s+${escape(name)}(?![\\w$(])(.*)$`);
  let found = false;
  for (const line of lines) {
    if (!line.includes(name)) continue;
    const match = define.exec(line);
    if (!match) continue;
    found = true;
    const value = codeOf(match[1]).replace(/\\$/, '').trim();
    if (value && !value.startsWith('__attribute__') && !(/^\w+$/.test(value) && ATTRIBUTE_NAME.test(value))) return false;
  }
  return found;
}

/** A parameter list is empty, `void`, or holds a pointer or two words in a row; an attribute's arguments do not. */
function parameterLike(args: string): boolean {
  return !args.trim() || /\.\.\.|\*|\b\w+\s+\w+\b|\b(void|int|char|short|long|unsigned|signed|float|double|bool|_Bool|struct|union|enum|const)\b/
    .test(args.replace(/sizeof\s*\([^)]*\)/g, 'x'));
}

const STORAGE_WORDS = /^((static|extern|inline|const|volatile|register|__inline|__inline__|thread_local|_Thread_local|__thread)\s+)+$/;

const ENUM_TYPED_VARIABLE = /\benum\s+[A-Za-z_]\w*\s+(?:const\s+)?(?:\*\s*)*([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*((?:__\w+\s*)*)=/g;
const enumVariablesOf = new WeakMap<string[], Set<string>>();

/** The names declared as variables of an enum type with an initializer in the file (`enum T name[] = {`), read once per file. */
function enumTypedVariables(lines: string[]): Set<string> {
  let names = enumVariablesOf.get(lines);
  if (!names) {
    names = new Set();
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].includes('enum')) continue;
      let code = codeOf(lines[i]);
      // `static const enum ethtool_link_mode_bit_indices` / `mlxsw_sp2_mask_ethtool_sgmii_100m[] = {`: the name on the next line.
      if (/\benum\s+[A-Za-z_]\w*$/.test(code)) code += ` ${codeOf(lines[i + 1] ?? '')}`;
      // ctags names the enum after an attribute word between the declarator and `=` when there is one (`clks_init_on[] __initdata = {`).
      for (const match of code.matchAll(ENUM_TYPED_VARIABLE)) for (const name of [match[1], ...match[2].split(/\s+/)]) if (name) names.add(name);
    }
    enumVariablesOf.set(lines, names);
  }
  return names;
}

/** An attribute macro's name, as attribute macros are named (`__ATM_API_ALIGN`, `__flexarr`, `_GNUTLS_GCC_ATTR_DEPRECATED`, `____cacheline_aligned`). */
const ATTRIBUTE_NAME = /^____|ATTR|DEPRECATED|ALIGN|PACKED|UNUSED|_API_|flexarr|aligned|packed|deprecated|cacheline|unused|^B(8|16|32|64)$/;

/** Words that may follow a parameter list: no function name. */
const AFTER_PARAMETERS = new Set(['noexcept', 'throw', 'const', 'volatile', 'override', 'final', 'requires', 'try', 'mutable', '__attribute__', '__attribute', 'asm', '__asm__', '__asm']);

const TYPE_KEYWORDS = new Set(['int', 'char', 'short', 'long', 'unsigned', 'signed', 'float', 'double', 'void', 'bool', '_Bool', 'const', 'volatile', 'struct', 'union', 'enum', 'class']);

/** What a recall test asserts: overall recall and every file's, both against ctags. */
export interface RecallBar {
  /** Overall, 0..1 (0.99). */
  overall: number;
  /** Every file with something to find, 0..1 (0.95). */
  perFile: number;
}

export const RECALL_BAR: RecallBar = { overall: 0.99, perFile: 0.95 };

interface Asserts {
  comment(...message: unknown[]): unknown;
  ok(value: unknown, message: string): unknown;
  same(found: unknown, wanted: unknown, message: string): unknown;
}

/** Comments the result (overall, by kind, every file below 100% with its misses) and asserts the bar. */
export function assertRecall(t: Asserts, result: Comparison, bar: RecallBar = RECALL_BAR): void {
  t.comment(describeComparison(result));
  t.comment(`by kind:\n${describeKinds(result)}`);
  const below = filesBelow(result, 1);
  if (below.length) t.comment(`${below.length} files below 100%:\n${describeFiles(result)}`);
  t.ok(recallOfComparison(result) >= bar.overall, `overall recall ${(recallOfComparison(result) * 100).toFixed(2)}% >= ${bar.overall * 100}%`);
  const failing = filesBelow(result, bar.perFile).map((file) => `${file.path} ${((file.found / file.expected) * 100).toFixed(1)}% (${file.found}/${file.expected})`);
  t.same(failing, [], `no file below ${bar.perFile * 100}%`);
}
