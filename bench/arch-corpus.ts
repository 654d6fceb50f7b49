/**
 * How many of the real release asset names in ../shared/corpus/asset-names.txt the architecture
 * rule (src/sources/forge/arch.ts) classifies: names with an architecture, per architecture, and
 * the names that name two. Run: npx tsx bench/arch-corpus.ts
 */
import { readFileSync } from 'node:fs';
import { archesInName } from '../src/sources/forge/arch.js';
import { corpusFile } from '../test/helpers/corpus.js';

const file = corpusFile('asset-names.txt');
if (!file) {
  console.log('bench/arch-corpus: ../shared/corpus/asset-names.txt is absent; nothing measured');
} else {
  const names = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.split('\t')[0]?.trim() ?? '')
    .filter((n) => n !== '');
  const perArch = new Map<string, number>();
  let classified = 0;
  const several: string[] = [];
  for (const name of names) {
    const arches = archesInName(name);
    if (arches.length > 0) classified++;
    if (arches.length > 1) several.push(name);
    for (const a of arches) perArch.set(a, (perArch.get(a) ?? 0) + 1);
  }
  console.log(
    `names: ${names.length}; with an architecture: ${classified}; without: ${names.length - classified}`,
  );
  for (const [arch, n] of [...perArch].sort()) console.log(`  ${arch}: ${n}`);
  if (several.length) console.log(`naming two architectures: ${several.join(', ')}`);
}
