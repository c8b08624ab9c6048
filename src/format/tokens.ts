/**
 * Token counts for `max_tokens`: o200k_base (the GPT-4o family's BPE encoding) through gpt-tokenizer, a maintained
 * pure-JavaScript tokenizer with no dependencies, loaded on the first budgeted answer (about 130 ms). No public
 * tokenizer is every model's: Claude's tokenizer is not published and counts code some 10-20% higher, so a client
 * that must stay under a hard limit asks for less than the limit.
 */
import type { countTokens as CountTokens } from 'gpt-tokenizer/encoding/o200k_base';

export interface TokenCounter {
  /** Tokens of `text`: each line's count plus one per line break (a few percent above counting it whole). */
  count(text: string): number;
}

/** Special-token text (`<|endoftext|>` in a source file) is counted as text, never refused. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

let loading: Promise<typeof CountTokens> | undefined;

/**
 * A counter that tokenizes each distinct line once: fitting an answer renders it several times with fewer rows,
 * and the lines that stay are the same lines.
 */
export async function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => module.countTokens);
  const countTokens = await loading;
  const lines = new Map<string, number>();
  return {
    count(text: string): number {
      let total = -1;
      for (const line of text.split('\n')) {
        let tokens = lines.get(line);
        if (tokens === undefined) {
          tokens = line === '' ? 0 : countTokens(line, AS_TEXT);
          lines.set(line, tokens);
        }
        total += tokens + 1;
      }
      return Math.max(0, total);
    },
  };
}
