/**
 * Running an operation the same way wherever it is asked (an HTTP route, an MCP tool call, a request of a batch):
 * its arguments read as the querystring is, the use case, and the answer cut to `max_tokens` when one is given.
 */
import type { Static, TObject } from 'typebox';
import { Value } from 'typebox/value';
import { describeValidation } from '../http-errors.js';
import type { Services } from '../services.js';
import { convertArguments } from '../whole-numbers.js';
import { fitToBudget } from './budget.js';
import type { Operation } from './operation.js';

/** JSON arguments (a model's, a batch request's params) as the use case takes them, or the message the HTTP route gives for them. */
export function readArguments(input: TObject, args: unknown): { value: Static<TObject> } | { message: string } {
  // As the HTTP querystring is read: depth 2 for "2" or "5" for 5 is understood; 2.7 or "0x10" for a limit is not.
  const read = convertArguments(input, Value.Default(input, Value.Clone(args ?? {})));
  if ('issue' in read) return { message: describeValidation([read.issue], 'querystring') };
  if (Value.Check(input, read.value)) return { value: read.value as Static<TObject> };
  return { message: describeValidation([...Value.Errors(input, read.value)], 'querystring') };
}

/** The use case's answer, cut to fit `max_tokens` when the input has one (see budget.ts). */
export async function answerOperation(operation: Operation, services: Services, input: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  const result = await operation.run(services, input as Static<TObject>, signal);
  const maxTokens = input.max_tokens;
  if (typeof maxTokens !== 'number' || operation.ownBudget || !operation.markdown) return result;
  return fitToBudget(operation, input, result, maxTokens);
}
