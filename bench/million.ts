/**
 * The million-symbol index the benches share: a workspace (googletest) and real trees as extra roots
 * (system headers, the Go standard library, Python packages, node_modules, the Google Cloud SDK when
 * installed), and the queries an agent would send it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '..');

export const MILLION_ROOT = '/usr/src/googletest';
export const MILLION_EXTRA = ['/usr/include', '/usr/share/go-1.19/src', '/usr/lib/python3/dist-packages', '/usr/lib/python3.11', path.join(REPO, 'node_modules'), '/usr/lib/google-cloud-sdk/lib'].filter((p) => existsSync(p));

/** Exact names, lower-case, CamelCase initials, prefixes, substrings, signature words. */
export const QUERIES = ['TestPartResult', 'Matcher', 'Observable', 'BehaviorSubject', 'Flask', 'NewRequest', 'HandlerFunc', 'printf', 'ZodString', 'testing::Test', 'behaviorsubject', 'BS', 'FPC', 'Subscri', 'get_json', 'ParseInt', 'Receipt', 'SchedulerLike'];

/** Names that match thousands of symbols. */
export const GENERIC = ['get', 'set', 'init', 'x', 'Get', 'string', 'Error'];
