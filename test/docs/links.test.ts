/**
 * The docs hold together: every image a page shows exists and every relative link (file, folder
 * or #anchor) resolves, in README.md, CONTRIBUTING.md, CHANGELOG.md and docs/. The checker itself
 * is shown to catch each kind of break on a page made to be broken.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cleanup, tempDir } from '../helpers/service';
import { anchorsOf, brokenLinks, markdownFiles } from './doc-links';

const pages = () => [...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map((f) => join(ROOT, f)), ...markdownFiles(join(ROOT, 'docs'))];

describe('the docs', () => {
  it('link only to files, folders, images and headings that exist', () => {
    const all = pages();
    expect(all.length).toBeGreaterThan(15);
    expect(brokenLinks(ROOT, all)).toEqual([]);
  });

  it('the checker finds a missing page, a missing picture and a wrong anchor, and passes good ones', () => {
    const dir = tempDir('s2t-doc-links-');
    try {
      mkdirSync(join(dir, 'images'));
      writeFileSync(join(dir, 'images', 'shown-light.png'), '');
      writeFileSync(join(dir, 'other.md'), '# Other page\n\n## Where `it` lives (a/b.ts)\n');
      writeFileSync(
        join(dir, 'page.md'),
        [
          '# Page',
          '[good](other.md#other-page) [good code heading](other.md#where-it-lives-abts) [self](#page) [web](https://example.com/x)',
          '<picture><source srcset="images/shown-dark.png"><img src="images/shown-light.png"></picture>',
          '[gone](missing.md) ![gone](images/nothing.png) [wrong](other.md#nowhere)',
          '```',
          '[inside code](not-checked.md)',
          '```',
        ].join('\n'),
      );
      expect(brokenLinks(dir, [join(dir, 'page.md')])).toEqual([
        'page.md: missing.md (no such file)',
        'page.md: images/nothing.png (no such file)',
        'page.md: other.md#nowhere (no heading makes that anchor)',
        'page.md: images/shown-dark.png (no such file)',
      ]);
    } finally {
      cleanup(dir);
    }
  });

  it('anchors are made as GitHub makes them, repeats numbered', () => {
    expect([...anchorsOf('# Sync and the local cache (main/cache, main/sync)\n## Tests\n## Tests\n')]).toEqual(expect.arrayContaining(['sync-and-the-local-cache-maincache-mainsync', 'tests', 'tests-1']));
  });
});
