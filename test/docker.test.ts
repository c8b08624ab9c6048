import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { REPO } from './helpers.js';

interface Instruction { keyword: string; args: string }

/** Dockerfile instructions with continuation lines joined and comments dropped: enough to check what the image does. */
function parseDockerfile(text: string): Instruction[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
}

/** An exec-form argument list (`["a", "b"]`), else the shell-form text as one entry. */
function argv(args: string): string[] {
  return args.startsWith('[') ? (JSON.parse(args) as string[]) : [args];
}

/**
 * A RUN's command without BuildKit's options (`--mount=type=secret,...`), as argv. The set-up's shell form
 * may export the build secrets a network needs (an npmrc, a CA) before scripts/setup.sh: read from
 * /run/secrets at build time, never kept in the image.
 */
function command(args: string): string[] {
  const run = argv(args.replace(/^(--[a-z-]+=\S+\s+)+/, ''));
  const secrets = /^(if \[ -f \/run\/secrets\/[\w-]+ \]; then export [A-Z_]+=\/run\/secrets\/[\w-]+; fi;\s*)+(?=scripts\/setup\.sh$)/;
  return run.length === 1 ? [run[0].replace(secrets, '')] : run;
}

const dockerfile = parseDockerfile(readFileSync(path.join(REPO, 'Dockerfile'), 'utf8'));
const all = (keyword: string): Instruction[] => dockerfile.filter((i) => i.keyword === keyword);
const last = (keyword: string): Instruction | undefined => all(keyword).at(-1);

t.test('the image is node 20 on Debian bookworm, installed by scripts/setup.sh and nothing else', async (t) => {
  t.match(dockerfile[0], { keyword: 'FROM', args: /^node:20-bookworm(\s|$)/ });
  const runs = all('RUN').map((run) => command(run.args));
  t.ok(runs.some((run) => run[0] === 'scripts/setup.sh'), 'RUN scripts/setup.sh');
  for (const run of runs) {
    t.ok(run[0] === 'scripts/setup.sh' || run[0] === 'install', `RUN ${run.join(' ')} is the set-up or a directory for the cache`);
  }
  t.ok(all('ADD').length === 0, 'no ADD: only COPY of the checkout');
  const setupIndex = dockerfile.findIndex((i) => i.keyword === 'RUN' && command(i.args)[0] === 'scripts/setup.sh');
  t.ok(dockerfile.findIndex((i) => i.keyword === 'COPY' && /^\.\s/.test(i.args)) < setupIndex, 'the checkout is copied before set-up runs');
  const ignore = readFileSync(path.join(REPO, '.dockerignore'), 'utf8').split('\n');
  for (const entry of ['node_modules', 'dist', '.git']) t.ok(ignore.includes(entry), `.dockerignore leaves out ${entry}: setup.sh makes it in the image`);
});

t.test('it runs as a non-root user, serving /workspace on 0.0.0.0 with the cache in a volume', async (t) => {
  const user = last('USER');
  t.ok(user && !/^(root|0)(:|$)/.test(user.args), `USER ${user?.args} is not root`);
  t.ok(dockerfile.indexOf(user!) > dockerfile.findIndex((i) => i.keyword === 'RUN'), 'USER comes after the set-up that needs root');
  const env = all('ENV').map((i) => i.args).join(' ');
  t.match(env, /PLUMB_HOST=0\.0\.0\.0/);
  t.match(env, /PLUMB_CACHE_DIR=\/cache/);
  t.same(argv(last('VOLUME')!.args), ['/cache']);
  const command = [...argv(last('ENTRYPOINT')!.args), ...argv(last('CMD')!.args)];
  t.same(command, ['node', '/opt/plumb/dist/src/cli.js', 'serve', '/workspace'], 'plumb serve /workspace, from the build setup.sh made');
  t.match(readFileSync(path.join(REPO, 'package.json'), 'utf8'), /"plumb": "dist\/src\/cli\.js"/, 'the path is the package\'s bin');
});

t.test('HEALTHCHECK asks /health, which needs no token', async (t) => {
  const healthcheck = last('HEALTHCHECK');
  t.ok(healthcheck, 'HEALTHCHECK present');
  t.match(healthcheck!.args, /CMD .*127\.0\.0\.1:.*\/health/);
  const exec = healthcheck!.args.slice(healthcheck!.args.indexOf('CMD') + 3).trim();
  t.doesNotThrow(() => argv(exec), 'exec form is valid JSON');
});

t.test('the README\'s docker run line is what the Dockerfile supports', async (t) => {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const run = /docker run[^\n]*(?:\\\n[^\n]*)*/.exec(readme)?.[0];
  t.ok(run, 'README shows docker run');
  t.match(run, /:\/workspace:ro/, 'the workspace mounted read-only at /workspace');
  t.match(run, /:\/cache/, 'the cache volume');
  t.match(run, /PLUMB_TOKEN/, 'a token, since the container listens on 0.0.0.0');
  t.match(run, /-p 127\.0\.0\.1:7077:7077/, 'published on the host\'s loopback');
});
