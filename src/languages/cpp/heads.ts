/**
 * Declaration heads read through their macros, by shape. In C and C++ a declaration is specifiers, one
 * type and a declarator; a word or a call that fits none of those places is a macro the compiler would
 * have expanded (an attribute, an export or annotation macro), and tree-sitter, which sees no macro
 * definitions, reads it as a type or a name and loses the declaration (`void __init sched_init(void)` as a
 * variable `__init`). This scanner finds those words and calls among the declaration heads of a file and
 * says which ranges to blank (macros.ts blanks them, keeping every offset):
 *
 * - a call before a whole declaration: `__printf(1, 2) int f(...)`, `UE_DEPRECATED(5.1, "x") void F();`
 *   (two or more type or name words follow it; a macro that is the type, `TAILQ_ENTRY(x) link;`, is one);
 * - a word between the return type and the name, or before the type: `void __init f(void)`,
 *   `u64 notrace f(void)`, `struct page *__must_check f(...)`, `__visible void f(void)`;
 * - a word or call after a declarator: `unsigned int size ____cacheline_aligned_in_smp;`,
 *   `MemTable* imm_ GUARDED_BY(mutex_);`, `void *f(size_t n) __alloc_size(1);`, `) __acquires(x) {`;
 * - a word between `class`/`struct`/`union`/`enum` and the name of a type being defined (`class LEVELDB_EXPORT Iterator {`);
 * - words and calls between a type's closing brace and its declarators (`} __aligned(8) name;`, `} __packed;`).
 *
 * Directives other than conditionals inside an enum, an initializer or parentheses are blanked too: the grammar
 * has no room for them there and loses the rest of the list.
 *
 * Where the shape alone cannot say which of two words is the macro (`u64 notrace f` or `notrace u64 f`),
 * the one spelled like a macro (a leading `__`, or upper case with an underscore) or a well-known attribute
 * word is taken for it. Heads are found with the shared C lexer (comments, strings and directives skipped);
 * a head that holds a conditional directive is left alone (its branches are macros.ts's business), and
 * so are statements that are not declarations.
 */
import { directiveEnd, isIdentPart, isIdentStart, literalAt, matchingBrace, mayStartLiteral } from '../../syntax/c-lexer.js';
import { containsWord } from '../../syntax/common.js';

type Range = [number, number];

interface Token {
  type: 'word' | 'number' | 'literal' | 'punct';
  start: number;
  end: number;
  text: string;
}

interface Group {
  open: '(' | '[' | '{';
  start: number;
  end: number;
  /** The tokens and groups directly inside (not recorded past MAX_GROUP_ITEMS, nor deeper than RECORDED_DEPTH groups into a head). */
  items: Item[];
  truncated: boolean;
}

type Item = Token | Group;

const isGroup = (item: Item | undefined): item is Group => !!item && 'open' in item;
const isWord = (item: Item | undefined, text?: string): item is Token => !!item && !isGroup(item) && item.type === 'word' && (text === undefined || item.text === text);
const isPunct = (item: Item | undefined, text?: string): item is Token => !!item && !isGroup(item) && item.type === 'punct' && (text === undefined || item.text === text);

const MAX_GROUP_ITEMS = 96;
/** A head's groups and the groups in those record their items: `__nonnull ((1, 2))`, `__NTH (f (int x))`. */
const RECORDED_DEPTH = 2;
const MAX_HEAD_ITEMS = 256;

/** Words C and C++ (and tree-sitter's grammars for them) know as specifiers and qualifiers. */
const SPECIFIERS = new Set([
  'static', 'extern', 'inline', 'const', 'volatile', '__const', '__volatile', '__volatile__', 'register', 'auto', 'restrict', '__restrict__', '__restrict', '_Noreturn', 'noreturn',
  '__inline', '__inline__', '__forceinline', 'thread_local', '__thread', '_Thread_local', 'constexpr', 'consteval', 'constinit', 'virtual',
  'explicit', 'friend', 'mutable', 'typedef', '__extension__', '_Nonnull', '_Nullable', '__cdecl', '__stdcall', '__fastcall', '__thiscall',
  '__vectorcall', '__clrcall', '__unaligned', '_unaligned', '__ptr32', '__ptr64', '__sptr', '__uptr', 'override', 'final', 'noexcept',
  'throw', 'try', 'export', 'module', 'import', '__based',
]);

/** Specifiers that begin a declaration (before its type); a word before one of them is a macro. */
const STORAGE = new Set(['static', 'extern', 'inline', '__inline', '__inline__', '__forceinline', 'typedef', 'virtual', 'explicit', 'friend', 'thread_local', '__thread', '_Thread_local', 'register', 'mutable', 'constexpr', 'consteval', 'constinit']);

/** Type words: the primitive types and the sized/signed specifiers (`unsigned long`). */
const PRIMITIVES = new Set([
  'void', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', '__signed__', '__signed', 'bool', '_Bool', '_Complex', '__complex__', '_Imaginary',
  '__int128', '__int64', '__int32', '__int16', '__int8', 'wchar_t', 'char8_t', 'char16_t', 'char32_t', '__float128', '_Float16', '_Float32',
  '_Float64', '_Float128',
]);

/** Words that begin a type named by a tag (`struct foo`). */
const TAGS = new Set(['struct', 'union', 'enum', 'class', 'typename']);

/** Words followed by parentheses that are attributes, not macros. */
const ATTRIBUTE_CALLS = new Set(['__attribute__', '__attribute', '__declspec', 'alignas', '_Alignas', '__asm__', '__asm', 'asm', '__volatile__', 'noexcept', 'throw', 'requires', '_Pragma', '__pragma']);

/** GCC's alternate spellings of qualifiers that tree-sitter's C and C++ grammars do not know. */
const GNU_QUALIFIERS = new Set(['__volatile__', '__volatile', '__const']);

/** Words followed by parentheses that are a type. */
const TYPE_CALLS = new Set(['decltype', 'typeof', '__typeof__', '__typeof', '_Atomic', '__underlying_type']);

/** A statement starting with one of these is no declaration whose head could be read here. */
const NOT_DECLARATIONS = new Set([
  'return', 'if', 'else', 'for', 'while', 'do', 'switch', 'case', 'default', 'goto', 'break', 'continue', 'co_return', 'co_yield',
  'co_await', 'delete', 'new', 'sizeof', 'static_assert', '_Static_assert', 'using', 'namespace', 'operator', 'public', 'private',
  'protected', 'catch', 'this', 'concept', 'requires', 'asm', '__asm__', '__asm', 'template', 'true', 'false', 'nullptr', 'NULL',
]);

/** Attribute macros written without underscores, common enough to tell from a type where the shape cannot (`u64 notrace f(void)`). */
const PLAIN_ATTRIBUTES = new Set(['notrace', 'noinline', 'noinstr', 'asmlinkage', 'fastcall', 'nokprobe']);

/**
 * Attribute macros spelled `__word` (their stems here) common enough to tell from a declarator where the shape cannot:
 * `} __packed;` declares no variable `__packed`, `} __value;` (glibc) declares a field.
 */
const ATTRIBUTE_STEMS = new Set([
  'visible', 'cold', 'hot', 'pure', 'weak', 'unused', 'used', 'deprecated', 'packed', 'aligned', 'cacheline_aligned',
  'cacheline_aligned_in_smp', 'randomize_layout', 'no_randomize_layout', 'designated_init', 'may_alias', 'maybe_unused',
  'always_unused', 'read_mostly', 'ro_after_init', 'initdata', 'initconst', 'refdata', 'latent_entropy', 'attribute_const',
  'must_check', 'noreturn', 'malloc', 'always_inline', 'init', 'exit', 'meminit', 'page_aligned', 'nonstring', 'noclone', 'flexarr',
  'attribute_pure', 'wur', 'THROW', 'NOTHROW', 'section', 'attribute_used', 'gnu_inline', 'inline', 'user', 'iomem', 'rcu', 'percpu',
  'force', 'bitwise', 'nocast', 'must_hold', 'acquires', 'releases', 'cond_lock', 'kprobes', 'weak', 'sched', 'ref', 'exitdata',
]);

const bare = (word: string): string => word.replace(/^_+|_+$/g, '');

/**
 * How much a word is spelled as a macro: 2 for upper case with an underscore (`GUARDED_BY`, `_GLIBCXX_NOTHROW`) or a
 * known attribute (`__init`, `notrace`); 1 for a reserved spelling that types share (`__u32`, `_Tp`); 0 for any other.
 */
function macroGrade(word: string): number {
  if (PLAIN_ATTRIBUTES.has(word) || word.startsWith('____') || (word.startsWith('__') && ATTRIBUTE_STEMS.has(bare(word)))) return 2;
  if (/^_*[A-Z][A-Z0-9]*_[A-Z0-9_]*$/.test(word) && !/_t$/.test(word)) return 2;
  if (/^__|^_[A-Z]/.test(word)) return 1;
  // All capitals (`ZEXTERN`, `WINAPI`): a macro more often than a type, which a tie then tells.
  return /^[A-Z][A-Z0-9]+$/.test(word) ? 0.5 : 0;
}

/** A word spelled as macros are and types rarely are (`__init`, `GUARDED_BY`, `_X`). */
function macroLike(word: string): boolean {
  return macroGrade(word) > 0;
}

/** An export or visibility macro's spelling: upper case with an underscore (`GTEST_API_`, `LEVELDB_EXPORT`). */
const EXPORT_MACRO = /^[A-Z][A-Z0-9]*_[A-Z0-9_]*$/;

/** A word only an attribute macro would be: a well-known attribute word (`__packed`, `__randomize_layout`), or four underscores (`____cacheline_aligned`). */
function attributeWord(word: string): boolean {
  return word.startsWith('____') || (word.startsWith('__') && ATTRIBUTE_STEMS.has(bare(word))) || PLAIN_ATTRIBUTES.has(word);
}

/** `#define` and `#undef`: what the preprocessor takes between any two tokens. */
const DEFINE_OR_UNDEF = /^#\s*(?:define|undef)\b/;

/** Words a function's declarator may end with after its parameter list (`int size() const &`). */
const DECLARATOR_END_WORDS = new Set(['const', 'volatile', 'noexcept', 'override', 'final', 'mutable']);

/** Whether a head ends as a function's declarator: its parameter list, then only qualifiers (`const`, `noexcept`, `&`). */
function endsDeclarator(head: Item[]): boolean {
  for (let k = head.length - 1; k >= 0; k--) {
    const item = head[k];
    if (isGroup(item)) return item.open === '(' && k > 0 && (isWord(head[k - 1]) || isGroup(head[k - 1]));
    if (!(isWord(item) && DECLARATOR_END_WORDS.has(item.text)) && !isPunct(item, '&') && !isPunct(item, '&&')) return false;
  }
  return false;
}

/** The first character of code at or after `from`, past blanks and directive lines ('' at the end). */
function nextCodeAt(source: string, from: number): string {
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (c === '#' && startsLine(source, i)) {
      i = directiveEnd(source, i) - 1;
      continue;
    }
    return c;
  }
  return '';
}

/** A conditional directive (`#if`, `#ifdef`, `#else`, `#endif`...). */
const CONDITIONAL = /^#\s*(?:if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b/;

/** What follows a type's closing brace: nothing special, its declarators, or a typedef's names. */
type Continuation = 'none' | 'declarators' | 'typedef';

interface Frame {
  /** Statements (a file, a namespace, class or function body): heads are read. */
  statements: boolean;
  head: Item[];
  /** The head holds a conditional directive: left alone. */
  conditional: boolean;
  /** The head follows a type's closing brace: declarators only (`} __aligned(8) name;`). */
  continuation: Continuation;
  /** This frame is the body of a type (class, struct, union, enum): its `}` is followed by declarators. */
  typeBody: Continuation;
  /** An enum body: its items are enumerators, not heads. */
  enumBody: boolean;
  /** A class body: the class's name (its constructors are declared without a type). */
  className: string | null;
  /** A group frame: the group it fills, and how many levels of groups inside it still record their items (0: none). */
  group: Group | null;
  record: number;
}

/** Whether the frame keeps the tokens read in it (add): a head's, or a group's whose items are recorded. */
function records(frame: Frame): boolean {
  return frame.statements || frame.record > 0;
}

/** A group frame's head: it reads no heads (frozen: one array for all of them). */
const NO_HEAD: Item[] = Object.freeze([]) as unknown as Item[];

function frame(statements: boolean, group: Group | null = null, record = 0): Frame {
  return { statements, head: statements ? [] : NO_HEAD, conditional: false, continuation: 'none', typeBody: 'none', enumBody: false, className: null, group, record };
}

/** The ranges to blank in `source`: macro words and calls in declaration heads. */
export function declarationHeadCuts(source: string): Range[] {
  const cuts: Range[] = [];
  const stack: Frame[] = [frame(true)];
  const n = source.length;
  /** What the quick brace count may still read, in all (a file of unclosed braces would be read to its end from each). */
  let quickBudget = 4 * n + 65_536;
  const top = (): Frame => stack[stack.length - 1];

  const closeGroup = (): void => {
    const done = stack.pop()!;
    const parent = top();
    const group = done.group!;
    if (parent.statements) {
      if (parent.head.length < MAX_HEAD_ITEMS) parent.head.push(group);
    } else if (parent.record > 0) {
      if (parent.group!.items.length < MAX_GROUP_ITEMS) parent.group!.items.push(group);
      else parent.group!.truncated = true;
    }
  };

  const add = (token: Token): void => {
    const current = top();
    if (current.statements) {
      if (current.head.length < MAX_HEAD_ITEMS) current.head.push(token);
      else current.conditional = true;
    } else if (current.record > 0) {
      if (current.group!.items.length < MAX_GROUP_ITEMS) current.group!.items.push(token);
      else current.group!.truncated = true;
    }
  };

  const endHead = (current: Frame, terminator: string): void => {
    if (terminator === '}' && current.typeBody !== 'none' && !current.enumBody && macroMembers(current.head)) {
      // Macro calls or words ending a type's body without a `;` (the MIPS `__BITFIELD_FIELD(unsigned int sign:1, __BITFIELD_FIELD(...,
      // ;)))` that lays bit-fields out by endianness, ACPICA's `ACPI_OBJECT_COMMON_HEADER ACPI_COMMON_NOTIFY_INFO};`): the members
      // they stand for are the macros'; the grammar has no member of that shape and loses the rest of the file.
      cuts.push([current.head[0].start, current.head[current.head.length - 1].end]);
    } else if (!current.conditional && !current.enumBody && current.head.length) analyzeHead(current.head, terminator, current.continuation, cuts, current.className);
    current.head = [];
    current.conditional = false;
    current.continuation = 'none';
  };

  for (let i = 0; i < n; i++) {
    const c = source.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11) continue;
    if (mayStartLiteral(c)) {
      if (c === 35 /* # */ && startsLine(source, i)) {
        const end = directiveEnd(source, i);
        const current = top();
        if (CONDITIONAL.test(source.slice(i, Math.min(end, i + 16)))) {
          // In a head, or in a parameter list of one (not an initializer's braces): the head is left alone.
          let k = stack.length - 1;
          while (k > 0 && !stack[k].statements && stack[k].group!.open !== '{') k--;
          if (stack[k].statements && stack[k].head.length) stack[k].conditional = true;
        } else if (!current.statements || current.enumBody) {
          // Any other directive in an enum, an initializer or parentheses, where the grammar takes none: it goes
          // (a `#define` there is still read from the original text, macrosFromText).
          cuts.push([i, end]);
        } else if (current.head.length && DEFINE_OR_UNDEF.test(source.slice(i, Math.min(end, i + 16))) && endsDeclarator(current.head) && nextCodeAt(source, end) === '{') {
          // A `#define` between a function's declarator and its body (`int size() const` / `#define SIZE 4` / `{`): the
          // preprocessor takes it anywhere, the grammar takes none there (in a class body the class ends at it, and its
          // later members go out of it). It goes too, read from the text as the others.
          cuts.push([i, end]);
        }
        i = end - 1;
        continue;
      }
      const literal = literalAt(source, i, LEXING);
      if (literal && literal.kind !== 'code') {
        if (literal.kind !== 'comment' && records(top())) add({ type: 'literal', start: i, end: literal.end, text: '' });
        i = literal.end - 1;
        continue;
      }
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(source.charCodeAt(j))) j++;
      if (records(top())) add({ type: 'word', start: i, end: j, text: source.slice(i, j) });
      i = j - 1;
      continue;
    }
    if (c >= 48 && c <= 57) {
      let j = i + 1;
      while (j < n) {
        const d = source.charCodeAt(j);
        if (isIdentPart(d) || d === 46 || d === 39) j++;
        else if ((d === 43 || d === 45) && /[eEpP]/.test(source[j - 1])) j++;
        else break;
      }
      if (records(top())) add({ type: 'number', start: i, end: j, text: '' });
      i = j - 1;
      continue;
    }
    const current = top();
    switch (c) {
      case 40: // (
      case 91: { // [
        const group: Group = { open: c === 40 ? '(' : '[', start: i, end: i + 1, items: [], truncated: false };
        stack.push(frame(false, group, current.statements ? RECORDED_DEPTH : Math.max(0, current.record - 1)));
        continue;
      }
      case 41: // )
      case 93: // ]
        if (!current.statements && current.group!.open === (c === 41 ? '(' : '[')) {
          current.group!.end = i + 1;
          closeGroup();
        }
        continue;
      case 123: { // {
        if (current.statements && current.head.length && functionBody(current.head)) {
          // A function body with no type declared in it: blanked before parsing (bodies.ts), so nothing in it matters here.
          const close = quickBudget > 0 ? matchingBrace(source, i, LEXING, i + quickBudget) : -1;
          quickBudget -= (close > 0 ? close : Math.min(n, i + quickBudget)) - i;
          if (close > 0 && !containsWord(source, i, close, LOCAL_TYPE_WORDS)) {
            endHead(current, '{');
            i = close;
            continue;
          }
        }
        if (!current.statements || initializerBrace(current.head)) {
          const group: Group = { open: '{', start: i, end: i + 1, items: [], truncated: false };
          stack.push(frame(false, group, 0));
          continue;
        }
        const kind = headKind(current.head);
        const typedef = current.head.some((item) => isWord(item, 'typedef'));
        const className = kind === 'type' ? typeName(current.head) : null;
        endHead(current, '{');
        const body = frame(true);
        body.typeBody = kind === 'other' ? 'none' : typedef ? 'typedef' : 'declarators';
        body.className = className;
        body.enumBody = kind === 'enum';
        stack.push(body);
        continue;
      }
      case 125: { // }
        if (!current.statements) {
          if (current.group!.open === '{') {
            current.group!.end = i + 1;
            closeGroup();
          } else {
            // A `}` closing what an unclosed `(` or `[` was inside: close them all.
            while (stack.length > 1 && !top().statements && top().group!.open !== '{') stack.pop();
            if (stack.length > 1 && !top().statements) {
              top().group!.end = i + 1;
              closeGroup();
            } else if (stack.length > 1) {
              endHead(top(), '}');
              const done = stack.pop()!;
              top().head = [];
              top().continuation = done.typeBody;
            }
          }
          continue;
        }
        if (stack.length === 1) {
          endHead(current, '}');
          continue;
        }
        endHead(current, '}');
        stack.pop();
        const parent = top();
        parent.head = [];
        parent.conditional = false;
        parent.continuation = current.typeBody;
        continue;
      }
      case 59: // ;
        // A `;` alone in a type's body (a member macro `DECLARE_BITMAP(mask, N);` the rules blanked): C's grammar takes no
        // empty member and loses the rest of the type.
        if (current.statements && current.typeBody !== 'none' && !current.enumBody && current.head.length === 0 && current.continuation === 'none' && /[;{]/.test(codeBefore(source, i))) cuts.push([i, i + 1]);
        else if (current.statements) endHead(current, ';');
        else add({ type: 'punct', start: i, end: i + 1, text: ';' });
        continue;
      default: {
        const text = punctuation(source, i);
        if (current.statements && text === ':' && current.head.length === 1 && isWord(current.head[0]) && /^(public|private|protected|signals|slots|Q_SIGNALS|Q_SLOTS)$/.test(current.head[0].text)) {
          current.head = [];
          i += text.length - 1;
          continue;
        }
        if (records(current)) add({ type: 'punct', start: i, end: i + text.length, text });
        i += text.length - 1;
      }
    }
  }
  return cuts;
}

const LEXING = { rawStrings: 'delimited' as const, directives: true };

/**
 * The words that make a function body worth reading (a local type can be declared in it), as bodies.ts keeps them.
 * The most frequent in C first: a body is searched for each word until one is found.
 */
const LOCAL_TYPE_WORDS = ['struct', 'enum', 'union', 'typedef', 'class', 'using'];

/** Only macro words (`ACPI_OBJECT_COMMON_HEADER`, `__BITFIELD_FIELD`), each alone or called: no member a compiler reads before expanding them. */
function macroMembers(head: Item[]): boolean {
  if (!head.length) return false;
  for (let k = 0; k < head.length; k++) {
    const item = head[k];
    if (isWord(item) && (EXPORT_MACRO.test(item.text) || (macroLike(item.text) && isGroup(head[k + 1])))) continue;
    if (isGroup(item) && item.open === '(' && isWord(head[k - 1])) continue;
    return false;
  }
  return true;
}

/** A head ending in a parameter list, without a type word: a function's (`int f(void) {`, `X::X() : a(1) {`). */
function functionBody(head: Item[]): boolean {
  let paren = false;
  for (let k = afterTemplateHeads(head); k < head.length; k++) {
    const item = head[k];
    if (isGroup(item)) {
      if (item.open === '(') paren = true;
    } else if (item.type === 'word' && (TAGS.has(item.text) || item.text === 'namespace')) {
      return false;
    } else if (item.type === 'punct' && item.text === '=' && !isWord(head[k - 1], 'operator')) {
      // (`operator=(const X& other) {` is a function's head.)
      return false;
    }
  }
  return paren && !initializerBrace(head);
}

/** The last character of code before `i`, white space and comments skipped ('' at the start). */
function codeBefore(source: string, i: number): string {
  let j = i - 1;
  for (let guard = 0; guard < 256; guard++) {
    while (j >= 0 && /\s/.test(source[j])) j--;
    if (j > 0 && source[j] === '/' && source[j - 1] === '*') {
      j = source.lastIndexOf('/*', j - 2) - 1;
      continue;
    }
    const comment = j >= 0 ? source.indexOf('//', source.lastIndexOf('\n', j) + 1) : -1;
    if (comment >= 0 && comment < j) {
      j = comment - 1;
      continue;
    }
    break;
  }
  return j >= 0 ? source[j] : '';
}

function startsLine(source: string, i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const c = source.charCodeAt(j);
    if (c === 10) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/** Two-character operators the head reader tells apart (`::`, `->`, `&&`, `<<`...), by their first character. */
const PAIRS: Record<string, string> = { ':': ':', '-': '>-=', '&': '&=', '|': '|=', '<': '<=', '>': '=', '=': '=', '!': '=', '+': '+=', '*': '=', '/': '=', '^': '=', '%': '=', '#': '#' };

function punctuation(source: string, i: number): string {
  const c = source[i];
  const seconds = PAIRS[c];
  if (seconds === undefined) return c;
  if (c === '.' ) return c;
  const next = source[i + 1];
  if (next !== undefined && seconds.includes(next)) return c + next;
  return c;
}

/**
 * Where the declaration after a head's `template <...>` heads starts (0 when it has none, or one is not closed): a default
 * in one (`template <typename U, typename V = int>`, `std::enable_if_t<...> = nullptr>`) is no initializer of the declaration.
 */
function afterTemplateHeads(head: Item[]): number {
  let from = 0;
  while (isWord(head[from], 'template') && isPunct(head[from + 1], '<')) {
    const close = matchingAngle(head, from + 1, true);
    if (close < 0) return 0;
    from = close + 1;
  }
  return from;
}

/** A `{` that opens an initializer or a member initializer, not a body: after `=`, `return`, or a word in a constructor's initializer list. */
function initializerBrace(head: Item[]): boolean {
  if (!head.length) return false;
  const last = head[head.length - 1];
  if (isPunct(last, '=') || isPunct(last, ',')) return true;
  const first = head[0];
  if (isWord(first) && (first.text === 'return' || first.text === 'co_return' || first.text === 'throw')) return true;
  const declaration = afterTemplateHeads(head);
  if (head.some((item, k) => k >= declaration && isPunct(item, '=') && !isWord(head[k - 1], 'operator'))) return true;
  // `X::X() : a_{1}, b_{2} {`: a brace right after a word, once a `:` followed a parameter list.
  if (isWord(last) || isPunct(last, '>')) {
    for (let k = 1; k < head.length; k++) if (isPunct(head[k], ':') && isGroup(head[k - 1])) return true;
  }
  return false;
}

/** What a head before `{` opens: a type body (class, struct, union), an enum body, or anything else. */
function headKind(head: Item[]): 'type' | 'enum' | 'other' {
  let kind: 'type' | 'enum' | 'other' = 'other';
  for (let k = 0; k < head.length; k++) {
    const item = head[k];
    // A parameter list: a function returning a struct (an attribute's parentheses aside).
    const before = head[k - 1];
    if (isGroup(item) && item.open === '(' && !(isWord(before) && ATTRIBUTE_CALLS.has(before.text))) return 'other';
    if (!isWord(item)) continue;
    if (item.text === 'namespace' || (item.text === 'extern' && !isWord(head[k + 1]))) return 'other';
    if (kind !== 'other') continue;
    if (item.text === 'enum') kind = 'enum';
    else if (item.text === 'struct' || item.text === 'union' || item.text === 'class') kind = 'type';
  }
  return kind;
}

/** The name of the class a head before `{` defines: the last word after `class`/`struct`/`union`, before a base list or template arguments. */
function typeName(head: Item[]): string | null {
  const at = head.findIndex((item) => isWord(item) && (item.text === 'class' || item.text === 'struct' || item.text === 'union'));
  let name: string | null = null;
  for (let k = at + 1; at >= 0 && k < head.length; k++) {
    const item = head[k];
    if (isPunct(item, ':') || isPunct(item, '<') || isWord(item, 'final')) break;
    if (isWord(item)) name = item.text;
  }
  return name;
}

/** One element of a declaration head. */
interface Unit {
  kind: 'specifier' | 'type' | 'tag' | 'attribute' | 'word' | 'pointer' | 'declarator-group' | 'array';
  start: number;
  end: number;
  /** A word's text (the last part of a qualified name). */
  text: string;
  /** A name's parts as written, template arguments left out (`Foo::~Foo`). */
  qualified?: string;
  /** A word followed by a parenthesized group: a function declarator, a macro call or the macro's type. */
  call: Group | null;
  /** For a tag: the tag's own words were taken apart (class-head macros cut). */
}

/** Reads the items of a head into units, up to what ends the declaration part (`=`, `,`, `;`, `:`, `[`, `->`, an initializer). Null when the head is no declaration. */
function readUnits(items: Item[], from: number, cuts: Range[], record: { end: number }, terminator: string): Unit[] | null {
  const units: Unit[] = [];
  let i = from;
  for (; i < items.length; i++) {
    const item = items[i];
    if (isGroup(item)) {
      if (item.open === '[') {
        // `[[nodiscard]]` is an attribute; any other bracket is an array declarator's (`int a[4] __aligned(8)`).
        if (isGroup(item.items[0]) && item.items[0].open === '[' && item.items.length === 1) {
          units.push({ kind: 'attribute', start: item.start, end: item.end, text: '', call: null });
          continue;
        }
        units.push({ kind: 'array', start: item.start, end: item.end, text: '', call: null });
        continue;
      }
      if (item.open === '{') break;
      // `(PR_CALLBACK *Initialize)`, `(XMLCALL *handler)`: a calling-convention macro before the pointer.
      const [first] = item.items;
      if (pointerDeclarator(item, items[i + 1]) && isWord(first)) {
        cuts.push([first.start, first.end]);
        item.items = item.items.slice(1);
      }
      units.push({ kind: 'declarator-group', start: item.start, end: item.end, text: '', call: item });
      continue;
    }
    if (item.type === 'punct') {
      if (item.text === '*' || item.text === '&' || item.text === '&&' || item.text === '^') {
        units.push({ kind: 'pointer', start: item.start, end: item.end, text: item.text, call: null });
        continue;
      }
      if (item.text === '::' || item.text === '~') {
        const word = readName(items, i);
        if (!word) return null;
        units.push(word.unit);
        i = word.next - 1;
        continue;
      }
      if (item.text === '=' || item.text === ',' || item.text === ':' || item.text === '->' || item.text === ';') break;
      return null;
    }
    if (item.type !== 'word') {
      // `extern "C" int f();`: the linkage string.
      if (item.type === 'literal' && isWord(items[i - 1], 'extern')) continue;
      return null;
    }
    const word = item.text;
    const next = items[i + 1];
    // A C++20 requires-clause ends the declarator: what follows is an expression.
    if (word === 'requires') break;
    // `V8_INLINE BasicMember& operator=(const BasicMember& other) {`: an operator's name (its symbol, `()`, `[]`, or a
    // conversion's type) and its parameter list are one declarator, as `name(...)` is.
    // (In C, `operator` is a name like any other: without a parameter list after it, it is read as one.)
    if (word === 'operator') {
      let j = i + 1;
      const symbol = items[j];
      if (isGroup(symbol) && symbol.open === '(' && symbol.items.length === 0 && isGroup(items[j + 1])) j++;
      else while (j < items.length && j <= i + 8 && !isPunct(items[j], ';') && !isPunct(items[j], ',')) {
        const at = items[j];
        if (isGroup(at) && at.open !== '[') break;
        j++;
      }
      const list = items[j];
      if (j > i + 1 && isGroup(list) && list.open === '(') {
        units.push({ kind: 'word', start: item.start, end: list.end, text: word, call: list });
        i = j;
        continue;
      }
    }
    // GCC's spellings of `volatile` and `const` (`__volatile__ __u32 p_csr;`): qualifiers neither grammar knows, read as a type.
    if (GNU_QUALIFIERS.has(word) && !(isGroup(next) && next.open === '(')) {
      cuts.push([item.start, item.end]);
      continue;
    }
    if (ATTRIBUTE_CALLS.has(word)) {
      const call = isGroup(next) && next.open === '(' ? next : null;
      units.push({ kind: 'attribute', start: item.start, end: call ? call.end : item.end, text: word, call });
      if (call) i++;
      if (word === 'noexcept' || word === 'throw' || word === 'requires') units[units.length - 1].kind = 'specifier';
      continue;
    }
    if (TYPE_CALLS.has(word) && isGroup(next) && next.open === '(') {
      units.push({ kind: 'type', start: item.start, end: next.end, text: word, call: null });
      i++;
      continue;
    }
    if (SPECIFIERS.has(word)) {
      units.push({ kind: 'specifier', start: item.start, end: item.end, text: word, call: null });
      continue;
    }
    if (PRIMITIVES.has(word)) {
      // GCC's `__signed__ char`: a spelling of `signed` the grammar does not know; the type word after it stays.
      if ((word === '__signed__' || word === '__signed') && isWord(next) && PRIMITIVES.has(next.text)) {
        cuts.push([item.start, item.end]);
        continue;
      }
      units.push({ kind: 'type', start: item.start, end: item.end, text: word, call: null });
      continue;
    }
    if (TAGS.has(word)) {
      const tag = readTag(items, i, cuts, terminator);
      if (!tag) return null;
      units.push(...tag.units);
      i = tag.next - 1;
      continue;
    }
    if (NOT_DECLARATIONS.has(word)) return null;
    const name = readName(items, i);
    if (!name) return null;
    units.push(name.unit);
    i = name.next - 1;
  }
  record.end = i;
  return units;
}

/** A name: `a::b<T>::c`, `~X`, `::x`; with the parenthesized group right after it as its call. */
function readName(items: Item[], from: number): { unit: Unit; next: number } | null {
  let i = from;
  let last: Token | null = null;
  let qualified = '';
  const start = items[from].start;
  for (;;) {
    const item = items[i];
    if (isPunct(item, '::') || isPunct(item, '~') || (isWord(item, 'template') && isPunct(items[i - 1], '::'))) {
      if (isPunct(item)) qualified += item.text;
      i++;
      continue;
    }
    if (!isWord(item)) return null;
    last = item;
    qualified += item.text;
    i++;
    // Template arguments: `<` ... the matching `>` among the head's items.
    if (isPunct(items[i], '<')) {
      const close = matchingAngle(items, i);
      if (close < 0) return null;
      i = close + 1;
    }
    if (isPunct(items[i], '::')) continue;
    break;
  }
  const group = isGroup(items[i]) && (items[i] as Group).open === '(' ? (items[i] as Group) : null;
  // `CK_RV (*fn)(int)`, `void (XMLCALL *handler)(...)`: a type, then a parenthesized declarator, not a call.
  const call = group && !pointerDeclarator(group, items[i + 1]) ? group : null;
  const end = call ? call.end : (items[i - 1] as Item).end;
  if (call) i++;
  return { unit: { kind: 'word', start, end, text: last.text, qualified, call }, next: i };
}

/**
 * The `>` closing the `<` at `open`; -1 when a `;` or a brace comes first. In a template head (`templateHead`)
 * defaults hold `=` and a `>>` must close it exactly; elsewhere an `=` ends the search.
 */
function matchingAngle(items: Item[], open: number, templateHead = false): number {
  let depth = 0;
  for (let i = open; i < items.length; i++) {
    const item = items[i];
    if (isPunct(item, '<')) depth++;
    else if (isPunct(item, '>')) {
      if (--depth === 0) return i;
    } else if (isPunct(item, '>>')) {
      depth -= 2;
      if (depth <= 0) return templateHead && depth < 0 ? -1 : i;
    } else if (isPunct(item, ';') || (!templateHead && isPunct(item, '=')) || (isGroup(item) && item.open === '{')) return -1;
  }
  return -1;
}

/**
 * `struct foo`, `enum class E : int`, `class EXPORT Name final : Base`: the tag keyword and its name as one type unit.
 * Before a definition's `{` or `:`, words between the keyword and the name are macros (cut); a word after
 * the name (`struct foo __rcu *p`, `struct foo bar;`) goes back to the head.
 */
function readTag(items: Item[], from: number, cuts: Range[], terminator: string): { units: Unit[]; next: number } | null {
  const keyword = items[from] as Token;
  let i = from + 1;
  if (keyword.text === 'enum' && (isWord(items[i], 'class') || isWord(items[i], 'struct'))) i++;
  const units: Unit[] = [];
  const names: Array<{ unit: Unit; next: number }> = [];
  for (;;) {
    const item = items[i];
    if (isWord(item) && ATTRIBUTE_CALLS.has(item.text) && isGroup(items[i + 1])) {
      i += 2;
      continue;
    }
    if (isGroup(item) && item.open === '[' && isGroup(item.items[0]) && item.items[0].open === '[') {
      i++;
      continue;
    }
    if (!isWord(item) && !isPunct(item, '::')) break;
    if (isWord(item) && (item.text === 'final' || SPECIFIERS.has(item.text) || PRIMITIVES.has(item.text) || TAGS.has(item.text))) break;
    const name = readName(items, i);
    if (!name || name.unit.call) break;
    names.push(name);
    i = name.next;
  }
  const after = items[i];
  // Defined here (`{`, `: Base`, `final`), or declared alone (`class GTEST_API_ Foo;`, the first word spelled as a macro).
  // (`struct HAL_VERSION ver;`, `enum HAL_CHIP_TYPE ChipType;` are a variable or member of an upper-case type: only a class, or a
  // word spelled as export macros are, is taken for one.)
  const alone = !after && terminator === ';' && names.length === 2 && !isWord(items[0], 'typedef') && EXPORT_MACRO.test(names[0].unit.text) && !macroLike(names[1].unit.text)
    && (keyword.text === 'class' || /_(API|EXPORT|EXPORTS|DLL|DLLEXPORT|VISIBLE|HIDDEN)_?$/.test(names[0].unit.text));
  const defines = keyword.text !== 'typename' && (isWord(after, 'final') || isPunct(after, ':') || (!after && terminator === '{') || alone);
  if (names.length === 0) {
    units.push(tagUnit(keyword, keyword.end));
    return { units, next: i };
  }
  if (defines) {
    // `class LEVELDB_EXPORT Iterator {`: the last word names the type, the ones before are macros.
    for (const name of names.slice(0, -1)) cuts.push([name.unit.start, name.unit.end]);
    units.push(tagUnit(keyword, names[names.length - 1].unit.end));
    return { units, next: i };
  }
  units.push(tagUnit(keyword, names[0].unit.end));
  return { units, next: names[0].next };
}

/** The tag keyword's unit, its name (if any) up to `end`. */
function tagUnit(keyword: Token, end: number): Unit {
  return { kind: 'tag', start: keyword.start, end, text: keyword.text, call: null };
}

/** `(*name)`, `(^name)`, `(&name)`, or with a calling-convention macro first (`(XMLCALL *name)`): a parenthesized declarator. */
function pointerDeclarator(group: Group, next: Item | undefined): boolean {
  const [first, second] = group.items;
  // Followed by its parameter list or its array bounds (`fclose (FILE *f);` is a parameter list, not a declarator).
  if (!isGroup(next) || next.open === '{') return false;
  if (isPunct(first) && (first.text === '*' || first.text === '^' || first.text === '&')) return true;
  return next.open === '(' && isWord(first) && isPunct(second, '*') && /^_*[A-Z][A-Z0-9_]*$/.test(first.text) && first.text.length > 1;
}

/** A parameter list rather than a macro's arguments: empty, `void`, or holding a type word, a tag, a pointer or two words in a row. */
function paramsLike(group: Group): boolean {
  const items = group.items;
  if (items.length === 0) return true;
  if (group.truncated) return true;
  // An expression: a number first, or `sizeof`/`alignof`/`typeof` (`__aligned(2*sizeof(long))`): no parameter list holds one.
  if (isNumber(items[0]) || items.some(isExpressionWord)) return false;
  let previousWord = false;
  for (const item of items) {
    if (isGroup(item)) {
      previousWord = false;
      continue;
    }
    if (item.type === 'word') {
      if (PRIMITIVES.has(item.text) || TAGS.has(item.text) || item.text === 'const' || item.text === 'volatile') return true;
      if (previousWord) return true;
      previousWord = true;
      continue;
    }
    if (item.type === 'punct' && (item.text === '*' || item.text === '&' || item.text === '&&' || item.text === '...')) return true;
    if (item.type === 'punct' && (item.text === '::' || item.text === '<' || item.text === '>')) continue;
    previousWord = false;
  }
  return false;
}

/** Arguments no parameter list holds at its top level: a string, a braced list, or a number right after `(` or `,` (`AMBA_APB_DEVICE(uart1, "apb:uart1", 0x41010, ...)`). */
function valueArguments(group: Group): boolean {
  return group.items.some((item, k) => (isGroup(item) && item.open === '{')
    || (!isGroup(item) && (item.type === 'literal' || (item.type === 'number' && (k === 0 || isPunct(group.items[k - 1], ','))))));
}

/**
 * Where the function declarator `name(...)` is, or -1. A call before any type is the type (a macro standing
 * for it: `PyAPI_FUNC(PyObject *) f(void)`) when a name follows it, else the declarator (a constructor, a
 * macro's own declaration). A call right after the type (pointers aside) is the declarator; after a type and a
 * word, it is the declarator only if it reads as one (`int __init f(void)`), else an attribute (`int size __aligned(8)`).
 */
function functionDeclaratorAt(units: Unit[], typeGiven: boolean): number {
  let typed = typeGiven;
  let wordSinceType = false;
  for (let i = 0; i < units.length; i++) {
    const unit = units[i];
    if (unit.kind === 'type' || unit.kind === 'tag') {
      typed = true;
      wordSinceType = false;
    } else if (unit.kind === 'word' && !unit.call) {
      if (typed) wordSinceType = true;
      typed = true;
    } else if (unit.kind === 'word') {
      if (!typed) {
        // Followed by a call, or not itself a parameter list: a macro standing for the type (`PyAPI_FUNC(PyObject *) f(void)`,
        // `TAILQ_ENTRY(x) link;`). A parameter list followed by words only is a constructor's or destructor's (`~X() _NOTHROW;`).
        const rest = units.slice(i + 1);
        const ownList = paramsLike(unit.call!) && !/^[A-Z0-9_]+$/.test(unit.text);
        if (rest.some((next) => next.kind === 'word' && (next.call !== null || !ownList))) {
          typed = true;
          continue;
        }
        return i;
      }
      // Right after the type a call is the declarator, unless it reads as an attribute and a declaration goes on after it.
      // (A macro holding a parameter list declares a function: `ssize_t __REDIRECT_NTH (alias, (const char *p), name)`.)
      if (declaratorCall(unit)) return i;
      if (!wordSinceType && (!units.slice(i + 1).some((next) => next.kind === 'word')
        || unit.call!.items.some((item, k) => isGroup(item) && item.open === '(' && paramsLike(item) && !isExpressionWord(unit.call!.items[k - 1])))) return i;
    }
  }
  return -1;
}

/** A function (or direct-initialized variable) declarator `name(...)`, not a macro call after or before one. */
function declaratorCall(unit: Unit): boolean {
  return unit.kind === 'word' && !!unit.call && (paramsLike(unit.call) || !macroLike(unit.text) || wrapsDeclarator(unit));
}

/** Words that make what follows them an expression, not a call (`sizeof(long)` in `__aligned(sizeof(long))`). */
const EXPRESSION_WORDS = new Set(['sizeof', 'alignof', '_Alignof', '__alignof__', '__alignof', 'typeof', '__typeof__', '__typeof', 'decltype', 'offsetof']);
const isExpressionWord = (item: Item | undefined): boolean => isWord(item) && EXPRESSION_WORDS.has(item.text);

const isNumber = (item: Item | undefined): boolean => !!item && !isGroup(item) && item.type === 'number';

/** `__NTH (readlink (const char *p, ...))`: a macro around a function declarator. */
function wrapsDeclarator(unit: Unit): boolean {
  const items = unit.call?.items ?? [];
  return items.length === 2 && isWord(items[0]) && !isExpressionWord(items[0]) && isGroup(items[1]) && items[1].open === '(' && paramsLike(items[1]) && macroLike(unit.text);
}

const countsAsWord = (unit: Unit): boolean => unit.kind === 'type' || unit.kind === 'tag' || unit.kind === 'word';

/**
 * Reads one head (the items from a statement's start to its `;`, `{` or `}`) and cuts the macros in it.
 * `continuation`: the head follows a type's closing brace, so it holds declarators only.
 */
function analyzeHead(items: Item[], terminator: string, continuation: Continuation, cuts: Range[], className: string | null = null): void {
  let from = 0;
  // `extern template ... f<T>(...);`: an explicit instantiation declaration the grammar takes without its `extern`.
  if (isWord(items[0], 'extern') && isWord(items[1], 'template') && !isPunct(items[2], '<')) {
    cuts.push([items[0].start, items[0].end]);
    return;
  }
  // `template <...>` heads (defaults in them too) and `extern "C"` prefixes.
  while (isWord(items[from], 'template') && isPunct(items[from + 1], '<')) {
    const close = matchingAngle(items, from + 1, true);
    if (close < 0) return;
    from = close + 1;
  }
  const first = items[from];
  if (!isWord(first) && !isPunct(first, '*') && !isPunct(first, '::') && !isPunct(first, '~') && !(isGroup(first) && first.open === '[')) return;
  const record = { end: 0 };
  const units = readUnits(items, from, cuts, record, terminator);
  if (!units || units.length === 0) return;
  const ended = items[record.end];
  const endsWith = isPunct(ended) ? ended.text : terminator;
  // A base list with a macro around a base (`: public V8_PLATFORM_NON_EXPORTED_BASE(v8::TracingController) {`): the base stays.
  if (terminator === '{' && isPunct(ended, ':') && units.some((unit) => unit.kind === 'tag')) {
    for (let k = record.end + 1; k < items.length; k++) {
      const item = items[k];
      const call = items[k + 1];
      if (isWord(item) && /^_*[A-Z][A-Z0-9_]*$/.test(item.text) && isGroup(call) && call.open === '(' && call.items.length) {
        cuts.push([item.start, call.start + 1], [call.end - 1, call.end]);
        k++;
      }
    }
  }
  // `static const DECLARE_TLV_DB_RANGE(bst_tlv, 0, 0, TLV_DB_SCALE_ITEM(0, 0, 0), ...);`: a macro that declares a whole
  // variable, after storage words only, its arguments no parameter list. Read as a function, its arguments (numbers, calls)
  // made the grammar lose the next declaration's braces as a block running to the end of the file; it goes whole.
  const last = units[units.length - 1];
  if (endsWith === ';' && continuation === 'none' && units.length >= 2 && units.slice(0, -1).every((unit) => unit.kind === 'specifier' && SPECIFIERS.has(unit.text))
    && last.kind === 'word' && last.call && EXPORT_MACRO.test(last.text) && (!paramsLike(last.call) || valueArguments(last.call)) && last.call.items.some((item) => isPunct(item, ','))) {
    cuts.push([units[0].start, last.end]);
    return;
  }
  cutDeclaration(units, continuation !== 'none', continuation === 'declarators', endsWith, cuts, className);
  // Further declarators: `int a __aligned(8), b __aligned(8);`
  if (isPunct(ended, ',') && !units.some((unit) => unit.kind === 'word' && unit.call && declaratorCall(unit))) {
    let at = record.end;
    for (let guard = 0; isPunct(items[at], ',') && guard < 64; guard++) {
      const more = { end: 0 };
      const declarator = readUnits(items, at + 1, [], more, ',');
      if (!declarator) return;
      const next = items[more.end];
      cutDeclaration(declarator, true, false, isPunct(next, '=') ? '=' : ',', cuts);
      at = more.end;
      // Skip an initializer up to the next top-level comma.
      if (isPunct(items[at], '=')) while (at < items.length && !isPunct(items[at], ',')) at++;
    }
  }
}

/** Cuts the unit's text. (A function, not a closure per declaration: tsx names each closure it makes.) */
function cut(cuts: Range[], unit: Unit): void {
  cuts.push([unit.start, unit.end]);
}

/**
 * Cuts the macros of one declaration part (specifiers, type, declarator, what follows the declarator).
 * `typeGiven`: the type is already there (after a type's body, or a further declarator after a comma);
 * `afterBody`: right after a type's closing brace.
 */
function cutDeclaration(units: Unit[], typeGiven: boolean, afterBody: boolean, terminator: string, cuts: Range[], className: string | null = null): void {
  // 1. A call before a whole declaration: two or more type or name words follow it.
  const kept: Unit[] = [];
  for (let i = 0; i < units.length; i++) {
    const unit = units[i];
    // Only before the type: specifiers, attributes or other such calls stand before it.
    if (unit.kind === 'word' && unit.call && !typeGiven && !kept.some((before) => before.kind === 'word' || before.kind === 'type' || before.kind === 'tag' || before.kind === 'pointer')) {
      let words = 0;
      for (let j = i + 1; j < units.length; j++) {
        const next = units[j];
        if (next.kind === 'tag' && j === units.length - 1 && terminator === '{') words += 2;
        else if (countsAsWord(next)) words++;
        else if (next.kind === 'declarator-group' && next.call?.items.some((item) => isPunct(item, '*') || isPunct(item, '^') || isPunct(item, '&'))) words++;
        // A call a name follows stands for the type (`Py_DEPRECATED(3.0) PyAPI_FUNC(int) f(void)`); else it is the declarator.
        // (An attribute call after the declarator, `f(const char *format, ...) Py_GCC_ATTRIBUTE((format(printf, 1, 2)))`, names nothing.)
        if (next.call && declaratorCall(next) && !units.slice(j + 1).some((later) => later.kind === 'word' && !(later.call && !paramsLike(later.call)))) break;
      }
      // `~X() _NOTHROW _TXN_SAFE;`: a parameter list of its own followed by words only is the declarator.
      const ownList = paramsLike(unit.call) && !/^[A-Z0-9_]+$/.test(unit.text);
      const declaration = units.slice(i + 1).some((next) => next.kind === 'type' || next.kind === 'tag' || next.call !== null);
      // A call holding a string or a number (`V8_CLANG_NO_SANITIZE("cfi-unrelated-cast") T* Get() const {`) stands for no type:
      // one word after it is enough.
      if ((words >= 2 || (words >= 1 && valueArguments(unit.call))) && (declaration || !ownList)) {
        cut(cuts, unit);
        continue;
      }
    }
    kept.push(unit);
  }
  units = kept;
  // An attribute after a pointer or right before a parenthesized declarator (`void *__attribute__((malloc)) f(void)`,
  // `typedef int __attribute__((nonnull(2))) (*cmp_t)(void *)`) stands where the grammar takes none.
  units = units.filter((unit, index) => {
    if (unit.kind !== 'attribute' || !unit.call) return true;
    if (units[index - 1]?.kind !== 'pointer' && units[index + 1]?.kind !== 'declarator-group') return true;
    cut(cuts, unit);
    return false;
  });
  // An attribute between a typedef's type and its name (`typedef __u8 __attribute__((__may_alias__)) __u8_alias_t;`): the
  // grammar takes one there in a declaration, not in a typedef.
  if (units[0]?.kind === 'specifier' && units[0].text === 'typedef') {
    units = units.filter((unit, index) => {
      if (unit.kind !== 'attribute' || !unit.call || index === 0 || units[index + 1]?.kind !== 'word') return true;
      cut(cuts, unit);
      return false;
    });
  }
  // An attribute between a variable's declarator and its initializer (`static int bugs[] __attribute__((unused)) = {`):
  // neither grammar takes one there, and C's loses the initializer's braces as a block that runs to the end of the file.
  if (terminator === '=') {
    while (units.length > 1 && units[units.length - 1].kind === 'attribute' && units[units.length - 1].call && units[units.length - 1].text !== 'asm'
      && units[units.length - 1].text !== '__asm__' && units[units.length - 1].text !== '__asm') {
      cut(cuts, units[units.length - 1]);
      units = units.slice(0, -1);
    }
  }
  // Storage and function specifiers come first: a word before one is a macro (`_XFUNCPROTOBEGIN extern Widget f(...)`).
  const lastStorage = units.map((unit) => unit.kind === 'specifier' && STORAGE.has(unit.text)).lastIndexOf(true);
  if (lastStorage > 0) {
    units = units.filter((unit, index) => {
      if (index > lastStorage || unit.kind !== 'word') return true;
      cut(cuts, unit);
      return false;
    });
  }
  // A macro around a parameter list (zlib's `zlibVersion OF((void))`): the word before it is the function, the list its own.
  for (let i = 1; i < units.length; i++) {
    const unit = units[i];
    const list = unit.call?.items[0];
    const name = units[i - 1];
    if (unit.kind !== 'word' || !unit.call || unit.call.items.length !== 1 || !isGroup(list) || list.open !== '(') continue;
    if (!paramsLike(list) && !/^_*[A-Z][A-Z0-9_]*$/.test(unit.text)) continue;
    if (name.kind !== 'word' || name.call) continue;
    cuts.push([unit.start, list.start]);
    cuts.push([unit.end - 1, unit.end]);
    units = [...units.slice(0, i - 1), { ...name, end: unit.end, call: list }, ...units.slice(i + 1)];
    break;
  }
  // `typedef __uint_least16_t char16_t;`: a typedef whose name the grammar takes for a type word; nothing to cut.
  if (units[0]?.kind === 'specifier' && units[0].text === 'typedef' && units[units.length - 1].kind === 'type' && units.filter((unit) => unit.kind === 'word').length === 1) return;
  // `} __packed;`, `} ____cacheline_aligned;`, `} __aligned(8);` (an unnamed member): after a type's body (not a
  // typedef's), attribute words and calls declare nothing.
  if (afterBody && units.every((unit) => unit.kind !== 'word' || attributeWord(unit.text))) {
    for (const unit of units) if (unit.kind === 'word') cut(cuts, unit);
    return;
  }
  // 2. The declarator: a function's `name(...)`, else the name of a variable, field or type.
  const fnAt = functionDeclaratorAt(units, typeGiven);
  const hasType = typeGiven || units.some((unit) => unit.kind === 'type' || unit.kind === 'tag');
  if (fnAt >= 0) {
    const before = units.slice(0, fnAt);
    // A constructor or destructor has no type: every word before it is a macro (`V8_INLINE Eternal() : val_(nullptr) {}`).
    const constructor = units[fnAt].text === className || /\b(\w+)::~?\1$/.test(units[fnAt].qualified ?? '');
    cutLoneWords(before, hasType || constructor, false, cuts, true);
    // After the parameter list only specifiers and attributes stand: any other word or call is a macro.
    for (const unit of units.slice(fnAt + 1)) {
      if (unit.kind === 'type' || unit.kind === 'tag' || unit.kind === 'declarator-group') return;
      if (unit.kind === 'word') cut(cuts, unit);
    }
    const declarator = units[fnAt];
    if (wrapsDeclarator(declarator)) {
      // The macro and its parentheses go; the name inside is the function's.
      const [name, list] = declarator.call!.items as [Token, Group];
      cuts.push([declarator.start, name.start], [declarator.end - 1, declarator.end]);
      cutParameters(list, cuts);
      return;
    }
    cutParameters(declarator.call!, cuts);
    return;
  }
  if (terminator === '{' && !typeGiven && !units.some((unit) => unit.kind === 'tag')) return;
  // `__BEGIN_DECLS struct ifaddrs {`: before a type's body there is no declarator, so a word is a macro.
  if (terminator === '{' && !typeGiven && units[units.length - 1].kind === 'tag') {
    for (const unit of units) if (unit.kind === 'word') cut(cuts, unit);
    return;
  }
  cutLoneWords(units, hasType, true, cuts);
}

/**
 * The words (and calls) of a declaration part without a function declarator, or before one: one type
 * (unless a type word, a tag or the enclosing declaration gives it), then, for a variable, one name;
 * every other word is a macro.
 */
function cutLoneWords(units: Unit[], hasType: boolean, needsName: boolean, cuts: Range[], declaratorFollows = false): void {
  const lastPointer = units.map((unit) => unit.kind).lastIndexOf('pointer');
  const firstPointer = units.findIndex((unit) => unit.kind === 'pointer');
  let typeTaken = hasType;
  // A macro call before the type is the type (`TAILQ_ENTRY(x) link;`, `STACK_OF(X509) *s;`); once a type is there, a call is an attribute.
  const words = units.filter((unit, index) => {
    if (unit.kind !== 'word') return false;
    if (unit.call) {
      // A string among its arguments (`V8_DEPRECATE_SOON("use X")`): an annotation, never a type.
      if (unit.call.items.some((item) => !isGroup(item) && item.type === 'literal')) {
        cut(cuts, unit);
        return false;
      }
      if (!typeTaken && index < (firstPointer < 0 ? Infinity : firstPointer) && !units.slice(0, index).some((u) => u.kind === 'word')) {
        typeTaken = true;
        // A macro around one type (`PyAPI_FUNC(PyObject *) f(void)`) gives way to it: C++ has no macro type specifier.
        if (unit.call.items.length && !unit.call.truncated && !unit.call.items.some((item) => isPunct(item, ','))
          && (declaratorFollows || units.slice(index + 1).some((later) => later.kind === 'word'))) {
          cuts.push([unit.start, unit.call.start + 1]);
          cuts.push([unit.end - 1, unit.end]);
        }
        return false;
      }
      cut(cuts, unit);
      return false;
    }
    return true;
  });
  if (words.length === 0) return;
  // `struct { ... } search[] __read_mostly = {`: after an array declarator only macros.
  const array = units.findIndex((unit) => unit.kind === 'array');
  if (array >= 0) {
    words.filter((unit) => unit.start > units[array].start).forEach((unit) => cut(cuts, unit));
    cutLoneWords(units.slice(0, array).filter((unit) => unit.kind !== 'word' || !unit.call), hasType, needsName, cuts);
    return;
  }
  // `void (*hook)(int) __read_mostly;`: the declarator is in parentheses; before it the type, after it only macros.
  const declarator = units.find((unit) => unit.kind === 'declarator-group' && isPunct(unit.call?.items[0]) && /^[*&^]$/.test((unit.call!.items[0] as Token).text));
  if (declarator) {
    keepSome(words.filter((unit) => unit.start < declarator.start), typeTaken ? 0 : 1, cuts);
    words.filter((unit) => unit.start > declarator.start).forEach((unit) => cut(cuts, unit));
    return;
  }
  if (lastPointer >= 0) {
    const pointer = units[firstPointer].start;
    const last = units[lastPointer].start;
    // Before the pointer: the type (unless given); between pointers nothing; after the last one: the name, if any.
    keepSome(words.filter((unit) => unit.start < pointer), typeTaken ? 0 : 1, cuts);
    words.filter((unit) => unit.start > pointer && unit.start < last).forEach((unit) => cut(cuts, unit));
    keepSome(words.filter((unit) => unit.start > last), needsName ? 1 : 0, cuts);
    return;
  }
  // The type given, a name to keep: of two plain words the last is the name (`typedef char FAR charf;`).
  keepSome(words, (typeTaken ? 0 : 1) + (needsName ? 1 : 0), cuts, typeTaken ? 'last' : 'first');
}

/**
 * Keeps `count` of the words and cuts the others: those not spelled as macros first; among the rest the
 * first, then (a type and a name to keep) the last: `typedef CK_INFO CK_PTR CK_INFO_PTR;` keeps the outer two.
 */
function keepSome(words: Unit[], count: number, cuts: Range[], prefer: 'first' | 'last' = 'first'): void {
  if (words.length <= count) return;
  const last = words.length - 1;
  const order = prefer === 'last' ? (index: number): number => last - index
    : (index: number): number => (index === 0 ? 0 : count > 1 && index === last ? 1 : 2 + index);
  const ranked = words.map((unit, index) => ({ unit, index, macro: macroGrade(unit.text) }))
    .sort((a, b) => a.macro - b.macro || order(a.index) - order(b.index));
  for (const { unit } of ranked.slice(count)) cut(cuts, unit);
}

/** Each parameter of a function declarator read the same way (`const char __user *buf`, `int x __maybe_unused`). */
function cutParameters(group: Group, cuts: Range[]): void {
  if (group.truncated) return;
  let start = 0;
  const items = group.items;
  for (let i = 0; i <= items.length; i++) {
    if (i < items.length && !isPunct(items[i], ',')) continue;
    const parameter = items.slice(start, i);
    start = i + 1;
    if (parameter.length < 3) continue;
    const record = { end: 0 };
    const local: Range[] = [];
    const units = readUnits(parameter, 0, local, record, ',');
    if (!units || units.some((unit) => unit.kind === 'declarator-group')) continue;
    const hasType = units.some((unit) => unit.kind === 'type' || unit.kind === 'tag');
    cutLoneWords(units, hasType, true, local);
    cuts.push(...local);
  }
}
