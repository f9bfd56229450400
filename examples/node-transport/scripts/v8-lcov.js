#!/usr/bin/env node
'use strict';
/**
 * V8 coverage (the JSON files NODE_V8_COVERAGE=DIR makes node write) to LCOV line coverage.
 *
 *   node scripts/v8-lcov.js DIR > lcov.info
 *
 * Only this example's own files under src/ are reported. A line counts as run
 * when the innermost V8 range holding its first non-blank character ran at
 * least once (block coverage, as NODE_V8_COVERAGE records it).
 */

const fs = require('node:fs');
const path = require('node:path');
const { fileURLToPath } = require('node:url');

const root = path.resolve(__dirname, '..');
const src = path.join(root, 'src') + path.sep;
const dir = process.argv[2];
const byFile = new Map(); // file -> one list of ranges per process that loaded it

for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.json'))) {
  const { result } = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  for (const script of result ?? []) {
    if (!script.url.startsWith('file:')) continue;
    const file = fileURLToPath(script.url);
    if (!file.startsWith(src)) continue;
    const runs = byFile.get(file) ?? [];
    runs.push(script.functions.flatMap((fn) => fn.ranges));
    byFile.set(file, runs);
  }
}

function countAt(ranges, offset) {
  let best = null;
  for (const r of ranges) {
    if (r.startOffset <= offset && offset < r.endOffset && (best === null || r.endOffset - r.startOffset <= best.endOffset - best.startOffset)) {
      best = r;
    }
  }
  return best === null ? 0 : best.count;
}

const out = [];
for (const [file, runs] of [...byFile].sort()) {
  const text = fs.readFileSync(file, 'utf8');
  out.push('TN:', `SF:${path.relative(root, file)}`);
  let offset = 0;
  let found = 0;
  let hit = 0;
  text.split('\n').forEach((line, i) => {
    const first = line.search(/\S/);
    if (first >= 0 && !/^\s*(\/\/|\*|\/\*\*|\*\/)/.test(line)) {
      // Several processes (one per bridge restart) each leave a file: a line ran if it ran in any.
      const count = Math.max(0, ...runs.map((ranges) => countAt(ranges, offset + first)));
      out.push(`DA:${i + 1},${count}`);
      found += 1;
      if (count > 0) hit += 1;
    }
    offset += line.length + 1;
  });
  out.push(`LF:${found}`, `LH:${hit}`, 'end_of_record');
}
process.stdout.write(`${out.join('\n')}\n`);
