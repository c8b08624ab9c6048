/**
 * The words of a signature as SQLite's FTS5 `unicode61` tokenizer makes them (the SQLite store's signature
 * tier), for stores without FTS5: a token is a run of letters, digits and private-use characters, case-folded,
 * Latin diacritics removed; everything else separates. ASCII is decided here; every other character is asked
 * once of FTS5 itself (an in-memory SQLite database), so both stores cut and fold text exactly alike.
 */
import Database from 'better-sqlite3';

/** Per non-ASCII code point: its folded text inside a token ('' when dropped), or null for a separator. */
const folds = new Map<number, string | null>();
let oracle: { insert: Database.Statement; terms: Database.Statement; clear: Database.Statement } | undefined;

function foldOf(code: number): string | null {
  let fold = folds.get(code);
  if (fold === undefined) {
    oracle ??= openOracle();
    // `a<c>a`: one token `a…a` when c is a token character (its fold in the middle), two `a` when it separates.
    oracle.insert.run(String.fromCodePoint(code));
    const terms = oracle.terms.all() as Array<{ term: string }>;
    oracle.clear.run();
    fold = terms.length === 1 ? terms[0].term.slice(1, -1) : null;
    if (folds.size < 100_000) folds.set(code, fold);
  }
  return fold;
}

function openOracle(): NonNullable<typeof oracle> {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE words USING fts5 (text, tokenize = 'unicode61'); CREATE VIRTUAL TABLE terms USING fts5vocab(words, 'instance');");
  return {
    insert: db.prepare("INSERT INTO words (rowid, text) VALUES (1, 'a' || ? || 'a')"),
    terms: db.prepare('SELECT term FROM terms ORDER BY offset'),
    clear: db.prepare('DELETE FROM words'),
  };
}

/** The tokens of `text`, in order, as FTS5 unicode61 indexes it (and reads a phrase query of it). */
export function signatureWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    let fold: string | null;
    if (code < 0x80) {
      if (code >= 0x61 && code <= 0x7a) fold = ch;
      else if (code >= 0x41 && code <= 0x5a) fold = String.fromCharCode(code + 32);
      else if (code >= 0x30 && code <= 0x39) fold = ch;
      else fold = null;
    } else {
      // A lone surrogate reaches SQLite as U+FFFD.
      fold = foldOf(code >= 0xd800 && code <= 0xdfff ? 0xfffd : code);
    }
    if (fold === null) {
      if (word) words.push(word);
      word = '';
    } else {
      word += fold;
    }
  }
  if (word) words.push(word);
  return words;
}
