#!/usr/bin/env node
// After a failed `tap` run, prints each failing assertion with its diagnostics,
// read from tap's saved results (.tap/test-results), so the end of a long log
// names what failed. Exits 1: it only runs when the suite has failed.
// Usage: tap-failures.mjs [SINCE_EPOCH_SECONDS] — results older than that are
// left from an earlier run and ignored.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = '.tap/test-results';
const MAX_LINES = 300;
const PER_FILE = 8;
const since = Number(process.argv[2] ?? 0) * 1000;

function* tapFiles(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names.sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* tapFiles(path);
    else if (name.endsWith('.tap') && statSync(path).mtimeMs >= since) yield path;
  }
}

/** The failing lines of a TAP stream, each with the YAML block that follows it. */
function failures(text) {
  const lines = text.split('\n');
  const out = [];
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*not ok\b/.test(lines[i])) continue;
    if (++count > PER_FILE) continue;
    out.push(lines[i]);
    const indent = lines[i].match(/^\s*/)[0].length;
    if (lines[i + 1]?.trim() === '---') {
      for (let j = i + 1; j < lines.length; j++) {
        if (/^\s*(source|stack|at):/.test(lines[j])) {
          const depth = lines[j].match(/^\s*/)[0].length;
          while (j + 1 < lines.length && lines[j + 1].match(/^\s*/)[0].length > depth) j++;
          continue;
        }
        out.push(lines[j]);
        if (lines[j].trim() === '...' && lines[j].match(/^\s*/)[0].length >= indent) break;
      }
    }
  }
  if (count > PER_FILE) out.push(`    # … and ${count - PER_FILE} more failing assertions`);
  return out;
}

const report = [];
for (const file of tapFiles(ROOT)) {
  const found = failures(readFileSync(file, 'utf8'));
  if (found.length > 0) report.push(`## ${relative(ROOT, file)}`, ...found, '');
}
console.log('\n# Failed tests (from .tap/test-results)');
if (report.length === 0) console.log('# no failing assertion was recorded; see the log above');
for (const line of report.slice(0, MAX_LINES)) console.log(line);
if (report.length > MAX_LINES) console.log(`# … ${report.length - MAX_LINES} more lines in .tap/test-results`);
process.exit(1);
