/**
 * Blanks macro noise that tree-sitter cannot know (Unreal's UCLASS()/GENERATED_BODY(), export macros
 * such as MYGAME_API or GTEST_API_, attribute macros after a parameter list, `#if` branches that
 * leave a brace unbalanced) out of C/C++ source before parsing, keeping every offset: blanked
 * characters become spaces, line breaks stay.
 *
 * Each kind of noise is one rule of RULES: what it matches (a pattern over the text), why it is
 * noise, and which ranges of a match it blanks. Brackets are matched and counted with the shared
 * C-family lexer (c-lexer.ts), so a parenthesis or brace in a string, character literal or comment
 * counts for nothing. What the rules leave, heads.ts reads declaration by declaration: a word or call that
 * no place in a declaration fits (`void __init f(void)`, `int size __aligned(8);`) is blanked by shape.
 */
import { directiveEnd, isIdentPart, isIdentStart, lexSpans, literalAt, literalEnd, matchingBrace, mayStartLiteral, startsLine, type CLexOptions } from '../../syntax/c-lexer.js';
import { declarationHeadCuts } from './heads.js';

type Range = [number, number];

interface MacroRule {
  name: string;
  /** Why the matched text is noise to tree-sitter (documentation). */
  why: string;
  /** What the rule matches: a global regex over the whole text. */
  pattern: RegExp;
  /** The rule runs only when the text contains one of these words (a cheap check that skips a regex pass). */
  needs?: readonly string[];
  /** The ranges to blank for one match; none keeps it. */
  blank(match: RegExpExecArray, source: string): Range[];
  /**
   * The pattern's matches, found faster than matchAll but the same ones (for a pattern anchored to lines that
   * a cheap test of each line rules out on most of them); matchAll when absent.
   */
  matches?(source: string, pattern: RegExp, text: TextLines): Iterable<RegExpExecArray>;
}

/** What the rules' matchers ask of one text's lines, each worked out once per text (blankCppMacros makes it). */
interface TextLines {
  /** '\n' is the text's only line end to `^` and `$` (no '\r', U+2028, U+2029): line-by-line matchers may be used. */
  readonly lines: boolean;
  /** Where the lines start whose first character other than a space or tab is `_` or A-Z (two rules try them). */
  upperLineStarts(): number[];
}

function textLines(source: string): TextLines {
  let upper: number[] | undefined;
  return { lines: !otherLineEnds(source), upperLineStarts: () => (upper ??= upperLineStarts(source)) };
}

const MAX_ARGUMENTS = 4000;

/** How cpp-macros lexes: C++ raw strings are literals; directive lines are scanned as code (their brackets count). */
const LEXING: CLexOptions = { rawStrings: 'delimited' };

/** The macro's name and its parenthesized arguments, from the match start; none when the `(` ending the match has no `)` near. */
function callFromMatchStart(match: RegExpExecArray, source: string): Range[] {
  const close = matchingParen(source, match.index + match[0].length - 1);
  return close > 0 ? [[match.index, close + 1]] : [];
}

/** The text captured as group 1, ending the match (or at `at` within it). */
function trailingGroup(match: RegExpExecArray, at = match[0].length - match[1].length): Range {
  const start = match.index + at;
  return [start, start + match[1].length];
}

const UNREAL_ANNOTATIONS = ['UCLASS', 'USTRUCT', 'UENUM', 'UINTERFACE', 'UFUNCTION', 'UPROPERTY', 'UDELEGATE', 'UMETA', 'UPARAM', 'GENERATED_', 'UE_DEPRECATED'];
const UNREAL_DECORATIONS = ['FORCEINLINE', 'FORCENOINLINE', 'UE_NODISCARD', 'RESTRICT', 'CONSTEXPR', 'UE_CONSTEVAL'];

export const RULES: readonly MacroRule[] = [
  {
    name: 'unreal-annotation',
    why: "Unreal's reflection macros (UCLASS(...), UPROPERTY(...), GENERATED_BODY()) annotate the declaration that follows; read as calls they swallow it.",
    pattern: /\b(?:UCLASS|USTRUCT|UENUM|UINTERFACE|UFUNCTION|UPROPERTY|UDELEGATE|UMETA|UPARAM|GENERATED_BODY|GENERATED_UCLASS_BODY|GENERATED_USTRUCT_BODY|GENERATED_UINTERFACE_BODY|GENERATED_IINTERFACE_BODY|UE_DEPRECATED)\s*\(/g,
    needs: UNREAL_ANNOTATIONS,
    blank: callFromMatchStart,
  },
  {
    name: 'standalone-call',
    why: 'An upper-case macro call alone on its line (`GENERATED_BODY()`, `DEPRECATED(4.2, "...")`, `GTEST_DISALLOW_ASSIGN_(X);`, '
      + 'gmpxx.h\'s `__GMP_DECLARE_COMPOUND_OPERATOR(operator+=)`) declares nothing tree-sitter could use and, without a `;`, joins the next declaration.',
    pattern: /^[ \t]*_*[A-Z][A-Z0-9_]+[ \t]*\(/gm,
    matches: matchesOnUpperLines,
    blank(match, source) {
      const open = match.index + match[0].length - 1;
      const close = matchingParen(source, open);
      if (close < 0 || continuesMacro(source, match.index)) return [];
      // A deprecation macro around a whole declaration and its message: the deprecation-wrapper rule's.
      if (match[0].includes('DEPRECATED') && deprecationWrapper(source, match.index, open).length) return [];
      // After `PB_DS_CLASS_C_DEC::` on the line above, the call is the qualified name's last part: an out-of-line
      // constructor a macro names (`PB_DS_GP_HASH_NAME()` / `: base(...)` in pb_ds' constructor_destructor_fn_imps.hpp).
      if (/::[ \t]*\r?\n[ \t]*$/.test(source.slice(Math.max(0, match.index - 8), match.index + match[0].length - match[0].trimStart().length))) return [];
      const rest = restOfLine(source, close + 1).trim();
      const after = rest.replace(/^;/, '').trim();
      if (after && !after.startsWith('//')) return [];
      // `PNAME(mout_phyclk_p)` / `= { "oscclk", ... };` (the kernel's clk drivers): starting a declaration, the call declares
      // what the next line initializes. (After `using is_always_equal`, libstdc++'s `_GLIBCXX20_DEPRECATED_SUGGEST("...")` above
      // `= true_type;` is an attribute: it goes.)
      if (!rest && nextCodeChar(source, close + 1) === '=' && source[source.indexOf('=', close + 1) + 1] !== '='
        && ['', ';', '}', '{'].includes(codeEndBefore(source, match.index))) return [];
      // `PR_EXTERN(PRUint32)` above `PL_strlen(const char *s);`: the macro stands for the return type of the
      // declarator on the next line (heads.ts reads it so); blanked, the function would have no type.
      if (!rest.startsWith(';') && /\S/.test(source.slice(open + 1, close)) && /^[ \t]*[A-Za-z_]\w*[ \t]*\(.*(\)[ \t]*[;{]|,)[ \t]*(\/[/*].*)?\r?$/.test(nextLine(source, close))) return [];
      // The name alone on the next line, its parameter list opening the line after (`PR_EXTERN(char *)` / `PL_Base64Decode` / `(`, nspr/plbase64.h).
      if (!rest.startsWith(';') && /\S/.test(source.slice(open + 1, close)) && /^[ \t]*[A-Za-z_]\w*[ \t]*\r?$/.test(nextLine(source, close))
        && /^[ \t]*\(/.test(nextLine(source, source.indexOf('\n', close + 1) + 1))) return [];
      // `TEST(A, B) {` is a function-like macro with a body: keep it, unless it follows a declarator
      // (`X()` then `_GLIBCXX_NOEXCEPT_IF(...)` then `{`).
      if (nextCodeChar(source, close + 1) === '{' && !afterDeclarator(source, match.index)) return [];
      return [[match.index, close + 1]];
    },
  },
  {
    name: 'class-export-macro',
    why: 'An upper-case word between `class` and the class name (`class GTEST_API_ Test {`) is an export macro; tree-sitter would take it for the name.',
    pattern: /\b(?:class|struct|union)\s+([A-Z_][A-Z0-9_]*)\s+(?=(?:alignas\s*\([^)]*\)\s*)?[A-Za-z_]\w*\s*(?:final\b|:[^:]|\{|<))/g,
    blank(match) {
      const start = match.index + match[0].indexOf(match[1], match[0].search(/\s/));
      return [[start, start + match[1].length]];
    },
  },
  {
    name: 'namespace-attribute',
    why: 'A visibility macro or GNU attribute after a namespace name (`namespace std _GLIBCXX_VISIBILITY(default)`, '
      + '`inline namespace __cxx11 __attribute__((__abi_tag__ ("cxx11"))) { }`) hides the namespace body.',
    pattern: /\bnamespace\s+[\w:]+\s+(_?[A-Z][A-Z0-9_]*\s*\(|__attribute__\s*\()/g,
    blank(match, source) {
      const start = match.index + match[0].length - match[1].length;
      const close = matchingParen(source, match.index + match[0].length - 1);
      return close > 0 ? [[start, close + 1]] : [];
    },
  },
  {
    name: 'inline-namespace-macro',
    why: 'An inline namespace a macro opens (`inline _GLIBCXX_BEGIN_NAMESPACE_VERSION` alone on its line, in c++config.h) leaves `inline` before '
      + 'the next declaration (`inline namespace literals {`): the line goes, as a lone macro word would (its closing macro goes as one).',
    pattern: /^[ \t]*inline[ \t]+_*[A-Z][A-Z0-9_]*NAMESPACE[A-Z0-9_]*[ \t]*(?:\/\/.*)?\r?$/gm,
    needs: ['NAMESPACE'],
    blank(match, source) {
      return continuesMacro(source, match.index) ? [] : [[match.index, match.index + match[0].replace(/\/\/.*$/, '').replace(/\r$/, '').length]];
    },
  },
  {
    name: 'lone-extension',
    why: 'GCC\'s `__extension__` alone on its line above a macro call (c++/12/bits/functional_hash.h\'s `__extension__` / `_Cxx_hashtable_define_trivial_hash(__GLIBCXX_TYPE_INT_N_0)`) '
      + 'only silences pedantic warnings; the grammar takes it for a qualifier of what follows, and a run of them joins macro calls into one '
      + 'declaration that swallows the next type.',
    pattern: /^[ \t]*(__extension__)[ \t]*\r?\n(?=[ \t]*[A-Za-z_]\w*[ \t]*\()/gm,
    needs: ['__extension__'],
    blank(match, source) {
      return continuesMacro(source, match.index) ? [] : [trailingGroup(match, match[0].indexOf(match[1]))];
    },
  },
  {
    name: 'lone-word',
    why: 'A lone upper-case macro word with an underscore (as macros have and type names rarely do) on its own line (QT_BEGIN_NAMESPACE, _GLIBCXX20_CONSTEXPR) annotates what follows; read as a type it eats the next declaration.',
    pattern: /^[ \t]*(_*[A-Z][A-Z0-9_]*)[ \t]*(?:\/\/.*)?\r?$/gm,
    matches: matchesOnUpperLines,
    blank(match, source) {
      if (!match[1].replace(/^_+/, '').includes('_', 1)) return [];
      // After `;`, `{`, `}`, a template head or a directive it annotates what follows; after `,` it is the last enumerator.
      if (continuesMacro(source, match.index) || !(endsStatement(source, match.index) || afterDeclarator(source, match.index))) return [];
      const start = match.index + match[0].indexOf(match[1]);
      // Before a pointer declarator (`ASN1_UTF8STRING` above `*f(const X *x);`) it is the type; after a `,` (a
      // directive between) and before `}`, the last enumerator.
      const next = codeCharAfter(source, start + match[1].length);
      if (next === '*' || next === '&' || (next === '}' && ',{'.includes(codeEndBefore(source, match.index) || ';'))) return [];
      return [[start, start + match[1].length]];
    },
  },
  {
    name: 'trailing-word',
    why: 'An upper-case macro word after a parameter list (`) const _GLIBCXX_NOEXCEPT;`) stands where only a specifier may.',
    pattern: /\)[ \t]*(?:const[ \t]*)?(?:&&?[ \t]*)?(_?[A-Z][A-Z0-9]*_[A-Z0-9_]*)(?=[ \t]*(?:[;{:=]|override\b|final\b|\r?$))/gm,
    blank(match, source) {
      // In a typedef the word after a macro type is the name (`typedef STACK_OF(X) XS;`).
      const lineStart = source.lastIndexOf('\n', match.index) + 1;
      // After a type's body and an attribute, the word is a declarator (`} __attribute__((packed)) NEGOTIATE_REQ;`).
      return isDirectiveLine(source, match.index) || /^\s*typedef\b/.test(source.slice(lineStart, match.index))
        || attributeAfterBody(source, match.index) ? [] : [trailingGroup(match)];
    },
  },
  {
    name: 'line-end-attribute-call',
    why: 'An attribute macro ending a declaration head whose next line starts with the function name (`static void PRINTF_STYLE(1,2)` / `die(...)`) would be read as the declarator.',
    pattern: /\b_?[A-Z][A-Z0-9_]*[ \t]*\((?=[^\n]*\)[ \t]*\r?\n[ \t]*[A-Za-z_]\w*[ \t]*\()/g,
    matches: matchesBeforeWordLines,
    blank(match, source) {
      const close = matchingParen(source, match.index + match[0].length - 1);
      if (close < 0 || restOfLine(source, close + 1).trim() || isDirectiveLine(source, match.index)) return [];
      // Only as part of a declaration head: something other than the macro stands before it on its line.
      const lineStart = source.lastIndexOf('\n', match.index) + 1;
      if (!source.slice(lineStart, match.index).trim()) return [];
      return [[match.index, close + 1]];
    },
  },
  {
    name: 'return-type-wrapper',
    why: 'An export macro wrapping the return type before a declarator (`extern NCURSES_EXPORT(int) endwin (void);`, `NCURSES_EXPORT_VAR(WINDOW *) stdscr;`) reads as a call: the macro name and its parentheses go, the type stays.',
    pattern: /\b_?[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]*\((?=[ \t]*[A-Za-z_][^()\n;{}]*\)[ \t]*[*&]*[ \t]*[A-Za-z_]\w*[ \t]*[(;[=,])/g,
    matches: (source, pattern) => matchesAt(source, pattern, callStarts(source, upperOrUnderscore)),
    blank(match, source) {
      const close = matchingParen(source, match.index + match[0].length - 1);
      if (close < 0 || isDirectiveLine(source, match.index)) return [];
      return [[match.index, match.index + match[0].length], [close, close + 1]];
    },
  },
  {
    name: 'trailing-annotation-call',
    why: 'An annotation macro after a parameter list (`~X() GTEST_LOCK_EXCLUDED_(mu) {`) hides the body or the `;` from the declarator.',
    pattern: /\)[ \t]*(?:const[ \t]*)?(?:noexcept[ \t]*)?([A-Z][A-Z0-9_]+[ \t]*\()/g,
    blank(match, source) {
      const start = match.index + match[0].length - match[1].length;
      const close = matchingParen(source, match.index + match[0].length - 1);
      if (close < 0) return [];
      // A parameter list of its own (a pointer, a reference, or a type and a name): the function itself, after a macro
      // standing for its type (`NSPR_API(void)        PR_FD_ZERO(PR_fd_set *set);` in nspr/obsolete/probslet.h).
      if (/[*&]|[A-Za-z_]\w*\s+[A-Za-z_]\w*/.test(source.slice(match.index + match[0].length, close))) return [];
      const next = nextCodeChar(source, close + 1);
      return next === '{' || next === ';' || next === ':' || next === '=' ? [[start, close + 1]] : [];
    },
  },
  {
    name: 'unreal-decoration',
    why: "Unreal's inlining and attribute words (FORCEINLINE, UE_NODISCARD, ...) stand where a type or specifier goes.",
    pattern: /\b(?:FORCEINLINE|FORCENOINLINE|FORCEINLINE_DEBUGGABLE|UE_NODISCARD|UE_NODISCARD_CTOR|RESTRICT|CONSTEXPR|UE_CONSTEVAL)\b/g,
    needs: UNREAL_DECORATIONS,
    blank(match, source) {
      return isDirectiveLine(source, match.index) ? [] : [[match.index, match.index + match[0].length]];
    },
  },
  {
    name: 'pure-virtual',
    why: 'Unreal\'s `virtual int F() PURE_VIRTUAL(AClass::F, return 0;);` holds a statement in its arguments.',
    pattern: /\bPURE_VIRTUAL\s*\(/g,
    needs: ['PURE_VIRTUAL'],
    blank(match, source) {
      const close = matchingParen(source, match.index + match[0].length - 1, true);
      return close > 0 ? [[match.index, close + 1]] : [];
    },
  },
  {
    name: 'named-variadic-parameter',
    why: 'A GNU named variadic macro parameter (`#define struct_group(NAME, MEMBERS...)`) is no parameter list to the grammar, which then names the macro wrongly: the `...` goes, the parameter stays.',
    pattern: /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_$][\w$]*\([^()\n]*?[A-Za-z_$][\w$]*[ \t]*(\.\.\.)[ \t]*\)/gm,
    needs: ['...'],
    matches: matchesOnDirectiveLines,
    blank(match) {
      return [trailingGroup(match, match[0].lastIndexOf('...'))];
    },
  },
  {
    name: 'empty-define-trailing-space',
    why: 'A `#define` without a value but with spaces after its name or parameters (`#define PKP(a,b) `), or with only a backslash '
      + 'going on to a blank line (`#define TIME(A, STR) \\` above an empty line), takes the next line\'s code for its value in the grammar '
      + '(a function\'s closing `}`, or `int main(void)`): the line goes; its macro is read from the text (macrosFromText).',
    pattern: /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_$][\w$]*(?:\([^()\n]*\))?(?:[ \t]+|[ \t]*\\\r?\n[ \t]*)\r?$/gm,
    needs: ['define'],
    // A match ends its first line with a blank or a backslash: only such lines are tried (a header of 100,000
    // `#define`s has a few).
    matches: (source, pattern, text) => matchesOnLinesEndingWith(source, pattern, text.lines, [32, 9, 92]),
    blank(match) {
      return [[match.index, match.index + match[0].replace(/\r$/, '').length]];
    },
  },
  {
    name: 'comment-past-directive',
    why: 'A block comment that starts on a directive line and ends on a later one (`#define CPM_MAP_SIZE (0x40000) /* 256k - the PQ3 reserve` / '
      + '`of space ... */`) is white space to the compiler, the directive ending at its line; the grammar ends the directive at the line break '
      + 'and reads the rest of the comment as code.',
    pattern: /^[ \t]*#[^\n]*?\/\*(?![^\n]*\*\/)/gm,
    needs: ['/*'],
    matches: matchesOnDirectiveLines,
    blank(match, source) {
      const open = match.index + match[0].length - 2;
      const close = source.indexOf('*/', open + 2);
      return close > 0 && !/\\\r?$/.test(source.slice(match.index, source.indexOf('\n', match.index))) ? [[open, close + 2]] : [];
    },
  },
  {
    name: 'designator-in-arguments',
    why: 'A designated initializer among a macro call\'s arguments (`CMD(MI_STORE_DWORD_IMM, SMI, !F, 0x3F, B, .bits = {{ .offset = 0 }}, )` in '
      + 'drivers/gpu/drm/i915/i915_cmd_parser.c) is no expression the grammar takes in an argument list: it loses the rest of the file. '
      + 'The designator and its value go.',
    pattern: /[(,]\s*(\.\s*[A-Za-z_]\w*\s*=)(?!=)/g,
    needs: ['.'],
    // A match starts at the `(` or `,` before a `.`, white space between.
    matches: (source, pattern) => matchesAt(source, pattern, separatorsBeforeDots(source)),
    blank(match, source) {
      const start = match.index + match[0].length - match[1].length;
      let i = start + match[1].length;
      while (i < source.length && /\s/.test(source[i])) i++;
      // A braced value (the cheap test first: designators in initializers are many), in an argument list.
      if (source[i] !== '{' || innermostOpen(source, match.index) !== '(') return [];
      const close = matchingBrace(source, i, LEXING, i + MAX_ARGUMENTS);
      if (close < 0) return [];
      // The comma after it too: two designators in a row leave no empty argument between them.
      let end = close + 1;
      while (end < source.length && /\s/.test(source[end])) end++;
      return [[start, source[end] === ',' ? end + 1 : close + 1]];
    },
  },
  {
    name: 'pointer-to-member-return',
    why: 'A function returning a pointer to member (`static GlobalListType Module::*getSublistAccess(GlobalVariable*) {` in LLVM\'s '
      + 'IR/Module.h) is no declarator the grammar takes: it loses the class\'s members after it. The `Module::*` goes; the function stays, '
      + 'its type the member\'s.',
    pattern: /[\w>*&][ \t]+((?:[A-Za-z_]\w*(?:<[^<>;{}()]*>)?[ \t]*::[ \t]*)+\*)[ \t]*[A-Za-z_]\w*[ \t]*\(/g,
    needs: ['::*'],
    blank(match, source) {
      return isDirectiveLine(source, match.index) ? [] : [trailingGroup(match, match[0].indexOf(match[1]))];
    },
  },
  {
    name: 'unnamed-pointer-template-parameter',
    why: 'An unnamed pointer template parameter with a default, ending the template head (`template <typename U, std::enable_if_t<IsDecayedSameV<T, U>>* = nullptr>` '
      + 'in node/cppgc/member.h), is no parameter the grammar takes: the declaration after it is lost. The `*` goes (a parameter of the type itself).',
    pattern: />[ \t]*(\*)[ \t]*=[ \t]*nullptr[ \t]*>/g,
    needs: ['nullptr'],
    blank(match) {
      const start = match.index + match[0].indexOf('*');
      return [[start, start + 1]];
    },
  },
  {
    name: 'deprecation-wrapper',
    why: 'A deprecation macro wrapping a whole declaration and its message (`LLVM_ATTRIBUTE_DEPRECATED(void insertEdge(BasicBlock *From, BasicBlock *To),` / '
      + '`"Use applyUpdates() instead.");` in LLVM\'s DomTreeUpdater.h) reads as a call: the macro\'s name, its parentheses and the message go, the declaration stays.',
    pattern: /\b_*[A-Z][A-Z0-9_]*DEPRECATED[A-Z0-9_]*[ \t]*\(/g,
    needs: ['DEPRECATED'],
    blank(match, source) {
      return isDirectiveLine(source, match.index) ? [] : deprecationWrapper(source, match.index, match.index + match[0].length - 1);
    },
  },
  {
    name: 'export-word',
    why: 'Export/visibility macros written before a return type or class name (`GTEST_API_ int f();`, `FOO_EXPORT`, `BAR_DLL`) read as a type.',
    pattern: /\b[A-Z][A-Z0-9_]*_(?:API|EXPORT|EXPORTS|DLL|DLLEXPORT)_?\b/g,
    needs: ['_API', '_EXPORT', '_DLL'],
    blank(match, source) {
      // On a preprocessor line the word is the macro being defined or tested: keep it. Called (`FT_EXPORT( FT_Error )`),
      // it stands for a type, which heads.ts reads out of it.
      // Followed by `,`, `=` or `}` it is an enumerator (`IMX_RPROC_SCU_API,`) or a variable's name, not an annotation.
      const next = nextCodeChar(source, match.index + match[0].length);
      if (isDirectiveLine(source, match.index) || next === '(' || next === ',' || next === '=' || next === '}') return [];
      return [[match.index, match.index + match[0].length]];
    },
  },
];

const escape = (word: string): string => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `needs` words that most C and C++ files hold near their start: a test of its own, stopping at the first, is cheaper
 * for them. The other words are rare, and most often in vain a test of its own reads the whole text: they are looked
 * for all at once (RARE_NEEDS).
 */
const COMMON_NEEDS = new Set(['.', '/*', 'define', '...']);

/** Each rule's common `needs` as one pattern: one pass over the text rather than one `includes` a word (the same answer). */
const NEEDS = new Map(RULES.filter((rule) => rule.needs?.some((word) => COMMON_NEEDS.has(word)))
  .map((rule) => [rule, new RegExp(rule.needs!.filter((word) => COMMON_NEEDS.has(word)).map(escape).join('|'))]));

/** The rare `needs` words (ASCII, three characters or more) by their first two characters' codes (`first * 128 + second`). */
const RARE_BY_PAIR = new Array<string[] | undefined>(128 * 128).fill(undefined);
/** For the first two characters' codes (`first * 128 + second`) some rare word starts with, an index into RARE_THIRDS above 0. */
const RARE_PAIRS = new Uint8Array(128 * 128);
/** Per RARE_PAIRS index, the third characters of the words starting with its pair: 128 bits (4 numbers), a bit by its code. */
const RARE_THIRDS: number[] = [0, 0, 0, 0];
for (const word of new Set(RULES.flatMap((rule) => rule.needs ?? []).filter((word) => !COMMON_NEEDS.has(word)))) {
  if (word.length < 3 || !/^[\x00-\x7f]+$/.test(word)) throw new Error(`rare needs word '${word}': rareWordsIn reads three ASCII characters`);
  const pair = word.charCodeAt(0) * 128 + word.charCodeAt(1);
  (RARE_BY_PAIR[pair] ??= []).push(word);
  if (RARE_PAIRS[pair] === 0) {
    RARE_PAIRS[pair] = RARE_THIRDS.length / 4;
    RARE_THIRDS.push(0, 0, 0, 0);
  }
  const third = word.charCodeAt(2);
  RARE_THIRDS[RARE_PAIRS[pair] * 4 + (third >> 5)] |= 1 << (third & 31);
}
const RARE_THIRD_BITS = Int32Array.from(RARE_THIRDS);

/**
 * The rare `needs` words in the text, in one pass: at each place whose first two characters start some word and whose
 * third is a third of one of those (RARE_PAIRS, RARE_THIRDS), the words that start with its two characters are compared
 * (a pattern of all the words, /UCLASS|USTRUCT|.../, tries each at every place: several times slower; a test of the
 * first character, then of the first two, read most places of a register header twice, whose words start with `_D`,
 * `_E`, `__` and `DE`). Each character is read once.
 */
function rareWordsIn(source: string): Set<string> {
  const found = new Set<string>();
  const n = source.length;
  if (n < 3) return found;
  // The two characters before `i`, 7 bits each: exact when both are ASCII (a code past 127 spills into the bits of the
  // character before it, which leave the pair with it: a place it spoils is not a word's, and startsWith tells).
  let pair = ((source.charCodeAt(0) << 7) | source.charCodeAt(1)) & 0x3fff;
  for (let i = 2; i < n; i++) {
    const c = source.charCodeAt(i);
    const index = RARE_PAIRS[pair];
    if (index !== 0 && c < 128 && (RARE_THIRD_BITS[index * 4 + (c >> 5)] & (1 << (c & 31))) !== 0) addRareWords(source, i - 2, pair, found);
    pair = ((pair << 7) | c) & 0x3fff;
  }
  return found;
}

/** The rare words at `at` (its first two characters' codes in `pair`, `first * 128 + second`). */
function addRareWords(source: string, at: number, pair: number, found: Set<string>): void {
  const words = RARE_BY_PAIR[pair];
  if (words) for (const word of words) if (source.startsWith(word, at)) found.add(word);
}

/** Whether the text holds one of the rule's `needs` words (`rare`: rareWordsIn's answer). */
function holdsNeeds(rule: MacroRule, source: string, rare: Set<string>): boolean {
  return rule.needs!.some((word) => rare.has(word)) || (NEEDS.get(rule)?.test(source) ?? false);
}

/**
 * The matches of `pattern` (global, multiline, anchored by `^` to a line start and matching within that line and,
 * past its line break, the next) starting on lines whose last character is one of `lastChars` (char codes): every
 * match, when a match's first line can only end so. Without `lines`, matchAll.
 */
function matchesOnLinesEndingWith(source: string, pattern: RegExp, lines: boolean, lastChars: number[]): Iterable<RegExpExecArray> {
  if (!lines) return source.matchAll(pattern);
  const sticky = new RegExp(pattern.source, 'my');
  const found: RegExpExecArray[] = [];
  let after = 0;
  for (let start = 0; start < source.length; ) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    if (end > start && start >= after && lastChars.includes(source.charCodeAt(end - 1))) {
      sticky.lastIndex = start;
      const match = sticky.exec(source);
      if (match) {
        found.push(match);
        after = sticky.lastIndex;
      }
    }
    start = end + 1;
  }
  return found;
}

/**
 * The matches of `pattern` (global, multiline, `^[ \t]*#`, each match ending on its line or a later one) on the
 * lines whose first character other than a space or tab is `#`, found by looking for the `#`s rather than trying
 * every line: every match. Without `lines`, matchAll.
 */
function matchesOnDirectiveLines(source: string, pattern: RegExp, text: TextLines): Iterable<RegExpExecArray> {
  if (!text.lines) return source.matchAll(pattern);
  const sticky = new RegExp(pattern.source, 'my');
  const found: RegExpExecArray[] = [];
  /** Where the last match ended: the next starts there or later. */
  let after = 0;
  for (let hash = source.indexOf('#'); hash >= 0; hash = source.indexOf('#', hash + 1)) {
    let lineStart = hash;
    while (source.charCodeAt(lineStart - 1) === 32 || source.charCodeAt(lineStart - 1) === 9) lineStart--;
    if ((lineStart > 0 && source.charCodeAt(lineStart - 1) !== 10) || lineStart < after) continue;
    sticky.lastIndex = lineStart;
    const match = sticky.exec(source);
    if (!match) continue;
    found.push(match);
    after = sticky.lastIndex;
    if (after > hash) hash = after - 1;
  }
  return found;
}

/**
 * The matches of `pattern` (global) tried only at `starts` (increasing offsets, among which every match of the
 * pattern starts): every match matchAll gives, without trying the pattern at every offset of the text.
 */
function matchesAt(source: string, pattern: RegExp, starts: readonly number[]): RegExpExecArray[] {
  const sticky = new RegExp(pattern.source, pattern.flags.replace('g', '') + 'y');
  const found: RegExpExecArray[] = [];
  /** Where the last match ended: the next starts there or later. */
  let after = 0;
  for (const start of starts) {
    if (start < after) continue;
    sticky.lastIndex = start;
    const match = sticky.exec(source);
    if (match) {
      found.push(match);
      after = sticky.lastIndex;
    }
  }
  return found;
}

/** A character (char code) `\w` matches. */
function wordChar(code: number): boolean {
  return wordStart(code) || (code >= 48 && code <= 57);
}

/** Where the words start that `[ \t]*\(` follows, those whose first character (char code) `first` accepts (a match of `\bWORD[ \t]*\(` starts at one). */
function callStarts(source: string, first: (code: number) => boolean): number[] {
  const starts: number[] = [];
  for (let paren = source.indexOf('('); paren >= 0; paren = source.indexOf('(', paren + 1)) {
    let end = paren;
    while (source.charCodeAt(end - 1) === 32 || source.charCodeAt(end - 1) === 9) end--;
    let start = end;
    while (start > 0 && wordChar(source.charCodeAt(start - 1))) start--;
    if (start < end && first(source.charCodeAt(start))) starts.push(start);
  }
  return starts;
}

/** JavaScript's `\s` (char code). */
function space(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a)
    || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** Each `(` or `,` that a `.` follows, white space (`\s`) between. */
function separatorsBeforeDots(source: string): number[] {
  const starts: number[] = [];
  for (let dot = source.indexOf('.'); dot >= 0; dot = source.indexOf('.', dot + 1)) {
    let at = dot - 1;
    while (space(source.charCodeAt(at))) at--;
    const c = source.charCodeAt(at);
    if (c === 40 || c === 44) starts.push(at);
  }
  return starts;
}

/** The text holds a line end other than '\n' to `^` and `$` ('\r', U+2028, U+2029). */
function otherLineEnds(source: string): boolean {
  return source.includes('\r') || source.includes('\u2028') || source.includes('\u2029');
}

/** A first character (char code) `_*[A-Z]` may start with. */
function upperOrUnderscore(code: number): boolean {
  return code === 95 || (code >= 65 && code <= 90);
}

/** A first character (char code) `[A-Za-z_]` matches. */
function wordStart(code: number): boolean {
  return upperOrUnderscore(code) || (code >= 97 && code <= 122);
}

/** The first character (char code) at or after `from` that is neither a space nor a tab (NaN at the end). */
function firstNonBlank(source: string, from: number): number {
  let at = from;
  while (source.charCodeAt(at) === 32 || source.charCodeAt(at) === 9) at++;
  return source.charCodeAt(at);
}

/**
 * The matches of `pattern` (global, multiline, `^[ \t]*` then `_*[A-Z]`, the whole match within its line) tried only on
 * the lines starting so: every match. Without `lines`, matchAll.
 */
function matchesOnUpperLines(source: string, pattern: RegExp, text: TextLines): Iterable<RegExpExecArray> {
  return text.lines ? matchesAt(source, pattern, text.upperLineStarts()) : source.matchAll(pattern);
}

/** The lines whose first character other than a space or tab is `_` or A-Z. */
function upperLineStarts(source: string): number[] {
  const starts: number[] = [];
  for (let start = 0; start < source.length; ) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    if (upperOrUnderscore(firstNonBlank(source, start))) starts.push(start);
    start = end + 1;
  }
  return starts;
}

/** The line ending at `end` (a line break) ends with `)[ \t]*\r?`. */
function endsWithParen(source: string, end: number): boolean {
  let at = end - 1;
  if (source.charCodeAt(at) === 13) at--;
  while (source.charCodeAt(at) === 32 || source.charCodeAt(at) === 9) at--;
  return source.charCodeAt(at) === 41;
}

/** The line from `start` starts with `[ \t]*[A-Za-z_]\w*[ \t]*\(`. */
function callStartsLine(source: string, start: number): boolean {
  let at = start;
  while (source.charCodeAt(at) === 32 || source.charCodeAt(at) === 9) at++;
  if (!wordStart(source.charCodeAt(at))) return false;
  while (isIdentPart(source.charCodeAt(at)) && source.charCodeAt(at) < 128) at++;
  while (source.charCodeAt(at) === 32 || source.charCodeAt(at) === 9) at++;
  return source.charCodeAt(at) === 40;
}

/**
 * line-end-attribute-call's matches: each lies within one line ending in `)` (the lookahead reaching into the next,
 * which must start with a word and its `(`), so only such lines are searched, each with the next: every match matchAll gives.
 */
function matchesBeforeWordLines(source: string, pattern: RegExp): Iterable<RegExpExecArray> {
  const found: RegExpExecArray[] = [];
  for (let start = 0; start < source.length; ) {
    const end = source.indexOf('\n', start);
    if (end < 0) break;
    if (endsWithParen(source, end) && callStartsLine(source, end + 1)) {
      let nextEnd = source.indexOf('\n', end + 1);
      if (nextEnd < 0) nextEnd = source.length;
      // What precedes a line start is a line break: `\b` reads the slice's start as the text's.
      for (const match of source.slice(start, nextEnd).matchAll(pattern)) {
        if (match.index >= end - start) break;
        match.index += start;
        found.push(match);
      }
    }
    start = end + 1;
  }
  return found;
}

export function blankCppMacros(source: string): string {
  return blankDeclarationHeads(blankMacroRules(source));
}

/** blankCppMacros' first part: its rules, unbalanced `#if` branches, braced arguments and comments in directives. */
export function blankMacroRules(source: string): string {
  const cuts: Range[] = [];
  const text = textLines(source);
  if (/[A-Z]{2}/.test(source)) {
    const rare = rareWordsIn(source);
    for (const rule of RULES) {
      if (rule.needs && !holdsNeeds(rule, source, rare)) continue;
      for (const match of rule.matches ? rule.matches(source, rule.pattern, text) : source.matchAll(rule.pattern)) cuts.push(...rule.blank(match, source));
    }
  }
  // Not a pattern: `#if` branches are matched up with a stack (see unbalancedBranches).
  cuts.push(...unbalancedBranches(source, text));
  cuts.push(...bracedArguments(source));
  cuts.push(...commentsInDirectives(source));
  return cuts.length ? blankRanges(source, cuts) : source;
}

/** blankCppMacros' second part: declaration heads, read by shape on what the rules left (heads.ts): macro words and calls no declaration has room for. */
export function blankDeclarationHeads(blanked: string): string {
  const heads = declarationHeadCuts(blanked);
  return heads.length ? blankRanges(blanked, heads) : blanked;
}

/** Words a `(` follows that call nothing: what is in their parentheses is an expression or a statement (`({ ... })`). */
const NOT_CALLS = new Set(['if', 'while', 'for', 'switch', 'return', 'sizeof', 'typeof', '__typeof__', '__typeof', 'alignof', '_Alignof', '__alignof__', 'decltype', 'case', '_Generic', 'do', 'else']);

/**
 * A braced list as a whole argument of a call after its first (`PRESENT_ENTRY_HID("INT0002", "1", ATOM_AIRMONT, {})`,
 * a macro's `{ DMI_MATCH(...), ... }` in drivers/acpi/x86/utils.c's table) is no expression to C's grammar, which loses
 * the rest of the file after it (C++'s takes it, and loses nothing when it goes): the list goes, with the comma that
 * parts it from its neighbour. Braces in the parentheses of what calls nothing (`for`, `sizeof`, GNU C's statement
 * expressions) stay, and so does a first argument (`_GLIBCXX20_INIT({})` after a member's name is an attribute's value
 * to the declaration heads); directive lines count for nothing.
 */
function bracedArguments(source: string): Range[] {
  if (!commaBeforeBrace(source)) return [];
  const cuts: Range[] = [];
  /** Per open bracket: 'c' a call's `(`, 'p' another `(`, '[', '{', or the offset of a braced argument's `{`. */
  const stack: Array<string | number> = [];
  let lastWord: string | null = null;
  /** The last code character that is no space ('' at the start). */
  let last = '';
  const n = source.length;
  for (let i = 0; i < n; i++) {
    const c = source.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (mayStartLiteral(c)) {
      const literal = literalAt(source, i, WITH_DIRECTIVES);
      if (literal && literal.kind !== 'code') {
        i = literal.end - 1;
        if (literal.kind === 'string' || literal.kind === 'char' || literal.kind === 'raw-string') {
          last = '"';
          lastWord = null;
        }
        continue;
      }
    }
    if (isIdentStart(c) || (c >= 48 && c <= 57)) {
      let j = i + 1;
      while (j < n && isIdentPart(source.charCodeAt(j))) j++;
      lastWord = isIdentStart(c) ? source.slice(i, j) : null;
      last = 'w';
      i = j - 1;
      continue;
    }
    const ch = source[i];
    if (ch === '(') {
      stack.push(lastWord !== null && !NOT_CALLS.has(lastWord) ? 'c' : 'p');
    } else if (ch === '[') {
      stack.push('[');
    } else if (ch === '{') {
      const top = stack[stack.length - 1];
      // After a `,` directly inside a call's parentheses (a first argument stays: `_GLIBCXX20_INIT({})`, one the
      // declaration heads read as an attribute's value).
      stack.push(last === ',' && top === 'c' ? i : '{');
    } else if (ch === ')' || ch === ']' || ch === '}') {
      const open = stack.pop();
      if (ch === '}' && typeof open === 'number') {
        let next = i + 1;
        while (next < n && /\s/.test(source[next])) next++;
        if (source[next] === ',') cuts.push([open, next + 1]);
        else if (source[next] === ')' && source[precedingCode(source, open)] === ',') cuts.push([precedingCode(source, open), i + 1]);
        else cuts.push([open, i + 1]);
      }
    }
    last = ch;
    lastWord = null;
  }
  return cuts;
}

/** A `{` follows a `,`, white space (`\s`) between (a cheaper `/,\s*\{/.test`). */
function commaBeforeBrace(source: string): boolean {
  for (let brace = source.indexOf('{'); brace >= 0; brace = source.indexOf('{', brace + 1)) {
    let at = brace - 1;
    while (space(source.charCodeAt(at))) at--;
    if (source.charCodeAt(at) === 44) return true;
  }
  return false;
}

/** The offset of the last non-space character before `index` (-1 when none). */
function precedingCode(source: string, index: number): number {
  let i = index - 1;
  while (i >= 0 && /\s/.test(source[i])) i--;
  return i;
}

/** The cuts of a deprecation macro wrapping a declaration (`M(void f(int a), "message")`): its name and `(`, and the message with its `)`; none when it wraps something else. */
function deprecationWrapper(source: string, start: number, open: number): Range[] {
  const close = matchingParen(source, open);
  if (close < 0) return [];
  // The last argument is the message: a string after a comma, the declaration before it ending with its parameter list.
  const message = /,\s*("(?:[^"\\\n]|\\.)*"\s*)+$/.exec(source.slice(open + 1, close));
  if (!message || !/\)\s*(const\s*)?$/.test(source.slice(open + 1, open + 1 + message.index))) return [];
  return [[start, open + 1], [open + 1 + message.index, close + 1]];
}

/** Replaces every character of the ranges but line breaks with a space (ranges may overlap). */
function blankRanges(source: string, cuts: Array<[number, number]>): string {
  cuts.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [from, to] of cuts) {
    const start = Math.max(from, at);
    if (to <= start) continue;
    const cut = source.slice(start, to);
    parts.push(source.slice(at, start), cut.includes('\n') || cut.includes('\r') ? cut.replace(/[^\r\n]/g, ' ') : ' '.repeat(cut.length));
    at = to;
  }
  parts.push(source.slice(at));
  return parts.join('');
}

/** The innermost bracket still open at `index` (`(`, `[` or `{`), read backwards over a thousand characters at most; '' when none is (or a `;` comes first). */
function innermostOpen(source: string, index: number): string {
  let depth = 0;
  for (let i = index; i >= 0 && i > index - 1024; i--) {
    const c = source[i];
    if (c === ')' || c === ']' || c === '}') depth++;
    else if (c === '(' || c === '[' || c === '{') {
      if (depth === 0) return c;
      depth--;
    } else if (c === ';') {
      return '';
    }
  }
  return '';
}

/** Index of the `)` closing the `(` at `open`, skipping literals and comments; -1 when none is near (or, unless `statements`, a `;`, `{` or `}` comes first). */
function matchingParen(source: string, open: number, statements = false): number {
  let depth = 0;
  const limit = Math.min(source.length, open + MAX_ARGUMENTS);
  for (let i = open; i < limit; i++) {
    const c = source.charCodeAt(i);
    if (mayStartLiteral(c)) {
      const literal = literalAt(source, i, LEXING);
      if (literal && literal.kind !== 'code') {
        i = literal.end - 1;
        continue;
      }
    }
    if (c === 40) {
      depth++;
    } else if (c === 41) {
      depth--;
      if (depth === 0) return i;
    } else if (!statements && (c === 59 || c === 123 || c === 125)) {
      return -1;
    }
  }
  return -1;
}

/** The code before `index` ends a statement or block (or the file, or a directive line, starts there). */
function endsStatement(source: string, index: number): boolean {
  let i = index - 1;
  while (i >= 0) {
    const lineStart = source.lastIndexOf('\n', i) + 1;
    const line = source.slice(lineStart, i + 1).replace(/\/\/.*$/, '').trim();
    // A directive, or another lone macro word (`QT_BEGIN_NAMESPACE` above `PRAGMA_DISABLE_...`).
    if (line.startsWith('#') || /^_?[A-Z][A-Z0-9_]*$/.test(line)) return true;
    if (line && !line.startsWith('*') && !line.startsWith('/*')) {
      return /[;{}>)\]:]$/.test(line) || (line.endsWith('*/') && /[;{}]\s*\/\*.*\*\/$/.test(line));
    }
    i = lineStart - 2;
  }
  return true;
}

/** The previous code line ends a parameter list (`)`, `) const`, `) override`). */
function afterDeclarator(source: string, lineStart: number): boolean {
  const before = source.slice(Math.max(0, lineStart - 400), lineStart).replace(/\/\/[^\n]*$/gm, '').trimEnd();
  if (!/\)\s*(const|override|final|noexcept|&|&&)?$/.test(before)) return false;
  // A directive's `)` (`#define LOG_KILL_TRACEE(fmt, ...)` ... `} while (0)` above `TEST(get_syscall_info)`) ends no declarator.
  let start = before.lastIndexOf('\n') + 1;
  while (start > 0 && /\\\r?$/.test(before.slice(before.lastIndexOf('\n', start - 2) + 1, start - 1))) start = before.lastIndexOf('\n', start - 2) + 1;
  return !/^\s*#/.test(before.slice(start));
}

/** Whether the `)` at `close` ends an attribute right after a type's closing brace (`} __attribute__((packed))`). */
function attributeAfterBody(source: string, close: number): boolean {
  let depth = 0;
  let open = -1;
  for (let i = close; i >= 0 && i > close - 512; i--) {
    const c = source[i];
    if (c === ')') depth++;
    else if (c === '(' && --depth === 0) {
      open = i;
      break;
    }
  }
  return open > 0 && /\}\s*(?:__attribute__|__attribute|__declspec|alignas|_Alignas)\s*$/.test(source.slice(Math.max(0, open - 64), open));
}

function isDirectiveLine(source: string, index: number): boolean {
  const lineStart = source.lastIndexOf('\n', index) + 1;
  return /^\s*#/.test(source.slice(lineStart, index));
}

function restOfLine(source: string, from: number): string {
  const end = source.indexOf('\n', from);
  return source.slice(from, end < 0 ? source.length : end);
}

/** The line after the one holding `index`. */
function nextLine(source: string, index: number): string {
  const start = source.indexOf('\n', index);
  return start < 0 ? '' : restOfLine(source, start + 1);
}

function nextCodeChar(source: string, from: number): string {
  const match = /\S/.exec(source.slice(from, from + 400));
  return match ? match[0] : '';
}

/** The line before ends with a backslash: this is the body of a #define. */
function continuesMacro(source: string, lineStart: number): boolean {
  let i = lineStart - 1;
  if (i < 0 || source[i] !== '\n') return false;
  i--;
  if (source[i] === '\r') i--;
  return source[i] === '\\';
}

const DIRECTIVE = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)$/gm;

interface Group {
  /** Start of each branch's directive line; the first is the `#if`. */
  branches: number[];
  deltas: number[];
  ifZero: boolean;
}

/**
 * `#if A` / `#else` branches that each open a brace or parenthesis (`TEST(X, Y) {` twice) leave tree-sitter
 * one brace short: keep the first branch, as ctags does, and blank the others. `#if 0` is dropped.
 */
function unbalancedBranches(source: string, text: TextLines): Array<[number, number]> {
  if (!source.includes('#')) return [];
  const cuts: Array<[number, number]> = [];
  const stack: Group[] = [];
  let last = 0;
  const count = (to: number): void => {
    const group = stack[stack.length - 1];
    if (group) group.deltas[group.deltas.length - 1] += braceDelta(source, last, to);
    last = to;
  };
  for (const match of matchesOnDirectiveLines(source, DIRECTIVE, text)) {
    const start = match.index;
    // With its continuation lines (`#if !(defined(A) || \` / `defined(B))`): their parentheses are the directive's, not code's.
    const end = directiveEnd(source, start);
    count(start);
    const directive = match[1];
    if (directive.startsWith('if')) {
      stack.push({ branches: [start], deltas: [0], ifZero: directive === 'if' && /^\s*0\s*(\/[/*].*)?$/.test(match[2]) });
    } else if (directive === 'endif') {
      const group = stack.pop();
      if (group) {
        const [first, second] = group.branches;
        let keep = 0;
        // (Read once for the two tests below.)
        const inside = !group.ifZero && insideStatement(source, first);
        if (group.ifZero) {
          // Drop the `#if 0` branch; what follows `#else` stays, without its directives.
          cuts.push([first, second ?? end]);
          if (second !== undefined) cuts.push([second, directiveEnd(source, second)], [start, end]);
        } else if ((inside || opensInitializer(source, first)) && group.deltas.every((delta) => delta === 0) && listItems(source, group.branches, start)) {
          // Inside a list (an initializer list, arguments, an enum, a constructor's member initializers), each branch
          // items ending in a comma: only the directive lines go, every branch stays (`editor_(true),` and `editor_(false),`).
          for (const branch of group.branches) cuts.push([branch, directiveEnd(source, branch)]);
          cuts.push([start, end]);
        } else if ((second !== undefined && group.deltas.some((delta) => delta !== 0)) || endsMidDeclaration(source, group.branches, start) || inside) {
          // Keep one branch as plain code, so a `template<...>` or `TEST(A, B) {` in it joins what follows: the first
          // that holds code (`#if defined(GUARD_H)` / `#else` / the whole header / `#endif` keeps the header).
          keep = group.branches.findIndex((branch, i) => holdsCode(source, directiveEnd(source, branch), group.branches[i + 1] ?? start));
          if (keep < 0) keep = 0;
          const next = group.branches[keep + 1];
          // A dropped branch's `#define`s stay: a definition is whole on its line, and both branches' macros are the file's.
          cuts.push(...keepingDefines(source, first, directiveEnd(source, group.branches[keep])), ...keepingDefines(source, next ?? start, end));
        }
        // What the enclosing branch sees is what is kept: the kept branch, or the rest after `#if 0`.
        const kept = group.ifZero ? group.deltas.slice(1).reduce((a, b) => a + b, 0) : group.deltas[keep];
        const parent = stack[stack.length - 1];
        if (parent) parent.deltas[parent.deltas.length - 1] += kept;
      }
    } else {
      const group = stack[stack.length - 1];
      if (group) {
        group.branches.push(start);
        group.deltas.push(0);
      }
    }
    last = end;
  }
  return cuts;
}

/**
 * The `#if` at `index` stands inside a statement or declaration (a list, an expression, between a declarator
 * and its body), where the grammar takes no directive: the code before it ends no statement.
 */
function insideStatement(source: string, index: number): boolean {
  const last = codeEndBefore(source, index);
  // After `X(const X& other) :`, a constructor's member initializers begin (pb_ds' `PB_DS_GP_HASH_NAME(...) :` / `#ifdef _GLIBCXX_DEBUG`);
  // after `list<_Tp, _Alloc>::`, an out-of-line member's own name (c++/12/bits/list.tcc).
  if (last === ':') return [')', ':'].includes(codeEndBefore(source, source.lastIndexOf(':', index)));
  return last !== '' && !';{}'.includes(last);
}

/** The `#if` at `index` is the first thing in an initializer's braces (`x[N] =` / `{` / `#ifdef CONFIG_X86_32`). */
function opensInitializer(source: string, index: number): boolean {
  if (codeEndBefore(source, index) !== '{') return false;
  const brace = source.lastIndexOf('{', index);
  return brace > 0 && codeEndBefore(source, brace) === '=';
}

/** A line inside a block comment (` * text`, ` *`), not one starting with a pointer declarator (`*lpat_table);`). */
const commentLine = (line: string): boolean => /^\*(?:\s|\/|$)/.test(line);

/** The last character of code before `index` (comments, blank lines and directive lines skipped); '' at the start. */
function codeEndBefore(source: string, index: number): string {
  let end = index;
  for (let guard = 0; end > 0 && guard < 10_000; guard++) {
    const lineStart = source.lastIndexOf('\n', end - 1) + 1;
    const previousEnd = lineStart - 1;
    // A directive line, or the continuation of one.
    let logical = lineStart;
    while (logical > 0 && /\\\r?$/.test(source.slice(source.lastIndexOf('\n', logical - 2) + 1, logical - 1))) logical = source.lastIndexOf('\n', logical - 2) + 1;
    const line = source.slice(lineStart, end);
    if (/^\s*#/.test(source.slice(logical, end))) {
      end = Math.max(0, logical - 1);
      continue;
    }
    let code = line.replace(/\/\/.*$/, '').replace(/\/\*.*?\*\//g, '').trim();
    if (code.endsWith('*/')) {
      // The end of a block comment: go on from where it starts.
      const open = source.lastIndexOf('/*', lineStart + line.lastIndexOf('*/'));
      if (open >= 0 && open < lineStart) {
        end = open;
        continue;
      }
      code = code.slice(0, code.lastIndexOf('/*')).trim();
    }
    if (code && !commentLine(code)) return code[code.length - 1];
    if (previousEnd < 0) return '';
    end = previousEnd;
  }
  return '';
}

/** Every branch of the group holds list items: its code is empty or ends with a comma. */
function listItems(source: string, branches: number[], endif: number): boolean {
  return branches.every((branch, i) => {
    const last = codeEndBefore(source, branches[i + 1] ?? endif);
    return !holdsCode(source, directiveEnd(source, branch), branches[i + 1] ?? endif) || last === ',';
  });
}

/**
 * Block comments inside a directive that goes on over several lines (`#define X \\` / `(A /* why *\/ \\`): the
 * grammar loses the end of a long one among them and reads the declarations after it as its body. A comment
 * in a directive is nothing to the index (a macro's doc is read from the text as written).
 */
function commentsInDirectives(source: string): Range[] {
  if (!source.includes('\\') || !source.includes('/*') || !mayHoldCommentsInDirectives(source)) return [];
  const cuts: Range[] = [];
  // The lexer's spans read in place (lexSpans' loop without its code spans).
  for (let i = 0; i < source.length; i++) {
    if (!mayStartLiteral(source.charCodeAt(i))) continue;
    const span = literalAt(source, i, WITH_DIRECTIVES);
    if (!span || span.kind === 'code') continue;
    i = span.end - 1;
    if (span.kind !== 'directive') continue;
    const text = source.slice(span.start, span.end);
    if (!text.includes('\n') || !text.includes('/*')) continue;
    for (let at = text.indexOf('/*'); at >= 0; at = text.indexOf('/*', at + 2)) {
      const close = text.indexOf('*/', at + 2);
      if (close < 0) break;
      cuts.push([span.start + at, span.start + close + 2]);
      at = close;
    }
  }
  return cuts;
}

/**
 * Whether a line the lexer may read as a directive (a `#` first on its line, to directiveEnd) goes on over several
 * lines and holds a block comment's start: a cheap test before lexing the whole text (the lexer's directives are
 * some of these lines, not those in comments or strings). Few files have one.
 */
function mayHoldCommentsInDirectives(source: string): boolean {
  for (let hash = source.indexOf('#'); hash >= 0; hash = source.indexOf('#', hash + 1)) {
    if (!startsLine(source, hash)) continue;
    const end = directiveEnd(source, hash);
    const newline = source.indexOf('\n', hash);
    if (newline >= 0 && newline < end && source.slice(hash, end).includes('/*')) return true;
    // A `#` first on a continuation line is this directive's.
    hash = end;
  }
  return false;
}

/** The range from `from` to `to` less its `#define` lines (continuations included). */
function keepingDefines(source: string, from: number, to: number): Range[] {
  const ranges: Range[] = [];
  let at = from;
  for (const span of lexSpans(source, WITH_DIRECTIVES, from, to)) {
    if (span.kind !== 'directive' || !/^#[ \t]*define\b/.test(source.slice(span.start, span.start + 16))) continue;
    if (span.start > at) ranges.push([at, span.start]);
    at = span.end;
  }
  if (to > at) ranges.push([at, to]);
  return ranges;
}

/** The first character of code after `from` (comments and directive lines skipped); '' when none is near. */
function codeCharAfter(source: string, from: number): string {
  for (const span of lexSpans(source, WITH_DIRECTIVES, from, Math.min(source.length, from + 4000))) {
    if (span.kind !== 'code') continue;
    const match = /\S/.exec(source.slice(span.start, span.end));
    if (match) return match[0];
  }
  return '';
}

/** Code (not comments, blank lines or directives) between two offsets. */
function holdsCode(source: string, from: number, to: number): boolean {
  for (const span of lexSpans(source, WITH_DIRECTIVES, from, to)) {
    if (span.kind === 'code' && /\S/.test(source.slice(span.start, span.end))) return true;
  }
  return false;
}

const WITH_DIRECTIVES: CLexOptions = { ...LEXING, directives: true };

/** Some branch stops in the middle of a declaration (`class X<...> final` then `#else`): its last code line ends no statement. */
function endsMidDeclaration(source: string, branches: number[], endif: number): boolean {
  return branches.some((start, i) => {
    const from = source.indexOf('\n', start);
    const to = branches[i + 1] ?? endif;
    if (from < 0 || from >= to) return false;
    // The last line that is not blank or a comment's (read from the end: the branch of a guard is the whole file).
    let last: string | undefined;
    for (let lineEnd = to; lineEnd > from; ) {
      // At or after `from`, which is a line break.
      const lineStart = source.lastIndexOf('\n', lineEnd - 1);
      const line = source.slice(lineStart + 1, lineEnd).replace(/\/\/.*$/, '').trim();
      if (line && !commentLine(line) && !line.startsWith('/*')) {
        last = line;
        break;
      }
      lineEnd = lineStart;
    }
    return last !== undefined && !last.startsWith('#') && !/[;{},:\\)]$|\*\/$/.test(last);
  });
}

/** Braces and parentheses counted in one number (braces scaled past any real paren count), so sums keep both. */
const BRACE = 1 << 16;

/** `{` minus `}` (times BRACE) plus `(` minus `)` in the code between two offsets (comments, strings, char literals and directive lines count nothing). */
function braceDelta(source: string, from: number, to: number): number {
  let delta = 0;
  for (let i = from; i < to; i++) {
    const c = source.charCodeAt(i);
    if (c === 123) delta += BRACE;
    else if (c === 125) delta -= BRACE;
    else if (c === 40) delta++;
    else if (c === 41) delta--;
    else if (mayStartLiteral(c)) {
      const end = literalEnd(source, i, WITH_DIRECTIVES);
      if (end > i) i = Math.min(end, to) - 1;
    }
  }
  return delta;
}
