/**
 * FileReader.scan, the reads of a syntactic scan of a whole tree for one name: the text of a file holding the name,
 * null (not decoded, not kept) for one without it, the same containment and size refusals as read(), and a stop.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { FileReader, type FileScan } from '../src/files.js';
import { tempDir } from './helpers.js';

function reader(root: string): FileReader {
  return new FileReader((real) => real === root || real.startsWith(`${root}/`));
}

/** What scan() gives for one file. */
async function scanOne(files: FileReader, absolute: string, needle: string, maxBytes = 1024 * 1024): Promise<FileScan> {
  const out: FileScan[] = [];
  await files.scan([absolute], needle, maxBytes, (_, scanned) => {
    out.push(scanned);
  });
  return out[0];
}

t.test('gives the text of a file holding the name, null for one without it, and keeps only the first', async (t) => {
  const root = tempDir(t);
  const files = reader(root);
  writeFileSync(path.join(root, 'with.c'), '\ufeffint kmalloc_node(void);\n');
  writeFileSync(path.join(root, 'without.c'), 'int kfree(void *p);\n');
  writeFileSync(path.join(root, 'größe.c'), 'int größe_der_liste(void);\n');

  const hit = await scanOne(files, path.join(root, 'with.c'), 'kmalloc_node');
  t.ok(hit.ok && hit.text?.includes('int kmalloc_node(void);'), 'the text of the file that holds the name');
  t.equal(files.cached(path.join(root, 'with.c')), 'int kmalloc_node(void);\n', 'kept, as read() keeps it (the byte-order mark dropped by cached())');

  const miss = await scanOne(files, path.join(root, 'without.c'), 'kmalloc_node');
  t.same(miss.ok && miss.text, null, 'null for a file without the name');
  t.equal(files.cached(path.join(root, 'without.c')), undefined, 'a file without the name is not kept');

  const unicode = await scanOne(files, path.join(root, 'größe.c'), 'größe_der_liste');
  t.ok(unicode.ok && unicode.text?.includes('größe_der_liste'), 'a name outside ASCII is found in the bytes');

  // From memory: the kept text is searched, the answer the same.
  const again = await scanOne(files, path.join(root, 'with.c'), 'kfree');
  t.same(again.ok && again.text, null, 'a kept text without the name gives null too');
});

t.test('refuses what read() refuses: a link out of the root, a folder, a file over the limit', async (t) => {
  const root = tempDir(t);
  const outside = tempDir(t);
  writeFileSync(path.join(outside, 'secret.c'), 'int kmalloc_node(void);\n');
  symlinkSync(path.join(outside, 'secret.c'), path.join(root, 'link.c'));
  mkdirSync(path.join(root, 'dir.c'));
  writeFileSync(path.join(root, 'big.c'), `int kmalloc_node(void);\n${'x'.repeat(4096)}`);
  const files = reader(root);

  const link = await scanOne(files, path.join(root, 'link.c'), 'kmalloc_node');
  t.match(link, { ok: false, reason: 'outside_root' }, 'a link leading outside the root is not read');
  t.match(await scanOne(files, path.join(root, 'dir.c'), 'kmalloc_node'), { ok: false, reason: 'not_a_file' });
  t.match(await scanOne(files, path.join(root, 'big.c'), 'kmalloc_node', 1024), { ok: false, reason: 'too_large' });
  t.match(await scanOne(files, path.join(root, 'gone.c'), 'kmalloc_node'), { ok: false, reason: 'not_found' });
});

t.test('reads in order until told to stop, and says how many it read', async (t) => {
  const root = tempDir(t);
  const paths = Array.from({ length: 5 }, (_, i) => path.join(root, `f${i}.c`));
  for (const file of paths) writeFileSync(file, 'int kmalloc_node(void);\n');
  const seen: number[] = [];
  const read = await reader(root).scan(paths, 'kmalloc_node', 1024, (i) => {
    seen.push(i);
  }, () => seen.length === 3);
  t.equal(read, 3);
  t.same(seen, [0, 1, 2]);
});
