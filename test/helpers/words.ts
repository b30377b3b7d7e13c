import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The transcript's words as the editor draws them: each segment's words are text, with the playing
 * and selected word as elements (`.word`, aria-current) and find matches and low-confidence words
 * as CSS highlights (`word-found`, `word-unsure`) over the text. These read what is drawn.
 */

export interface DrawnWord {
  text: string;
  /** Index of its row among the rows read. */
  row: number;
  /** Index of the word in its segment. */
  word: number;
  found: boolean;
  unsure: boolean;
  /** The selected word (clicked, or gone to with N). */
  cursor: boolean;
  /** The playing word. */
  now: boolean;
}

/** Every drawn word of the rows matching `rows` (default: the transcript's), in reading order. */
export const drawnWords = (page: Page, rows = '[aria-label="Transcript"] > li'): Promise<DrawnWord[]> =>
  page.$$eval(rows, (lis) => {
    const offsetOf = (p: Element, node: Node, offset: number) => {
      let at = 0;
      const walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
      for (let t = walk.nextNode(); t; t = walk.nextNode()) {
        if (t === node) return at + offset;
        at += t.textContent?.length ?? 0;
      }
      return -1;
    };
    const marked = (name: string, p: Element) =>
      Array.from((CSS.highlights as unknown as Map<string, Set<AbstractRange>>).get(name) ?? [])
        .filter((r) => p.contains(r.startContainer))
        .map((r) => [offsetOf(p, r.startContainer, r.startOffset), offsetOf(p, r.endContainer, r.endOffset)]);
    return lis.flatMap((li, row) => {
      const p = li.querySelector('p.seg-text');
      if (!p) return [];
      const found = marked('word-found', p);
      const unsure = marked('word-unsure', p);
      const spans = Array.from(p.querySelectorAll<HTMLElement>('.word'));
      const words = Array.from((p.textContent ?? '').matchAll(/\S+/gu));
      if (p.querySelector('.muted')) return [];
      return words.map((m, word) => {
        const start = m.index;
        const end = start + m[0].length;
        const over = (ranges: number[][]) => ranges.some(([a, b]) => a < end && b > start);
        const span = spans.find((s) => Number(s.dataset.word) === word);
        return { text: m[0], row, word, found: over(found), unsure: over(unsure), cursor: !!span?.classList.contains('cursor'), now: span?.getAttribute('aria-current') === 'time' };
      });
    });
  });

/** The middle of where word `word` (its index in the segment) of the transcript row `row` is drawn, in the page. */
async function wordPoint(row: Locator, word: number): Promise<{ x: number; y: number }> {
  await row.locator('p.seg-text').scrollIntoViewIfNeeded();
  const box = await row.locator('p.seg-text').evaluate((p, i) => {
    const words = Array.from((p.textContent ?? '').matchAll(/\S+/gu));
    const m = words[i];
    if (!m) throw new Error(`the row has no word ${i}`);
    let at = 0;
    const range = document.createRange();
    let started = false;
    const walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      const len = t.textContent?.length ?? 0;
      if (!started && m.index < at + len) {
        range.setStart(t, m.index - at);
        started = true;
      }
      if (started && m.index + m[0].length <= at + len) {
        range.setEnd(t, m.index + m[0].length - at);
        break;
      }
      at += len;
    }
    const r = range.getClientRects()[0];
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }, word);
  return box;
}

/** Clicks word `word` (its index in the segment) of the transcript row `row`, at the middle of where it is drawn. */
export async function clickWord(row: Locator, word: number): Promise<void> {
  const { x, y } = await wordPoint(row, word);
  await row.page().mouse.click(x, y);
}

/** Moves the pointer over word `word` of the transcript row `row`. */
export async function pointAtWord(row: Locator, word: number): Promise<void> {
  const { x, y } = await wordPoint(row, word);
  await row.page().mouse.move(x, y);
}

/** The text of the words tinted as under the pointer (the `word-hover` highlight). */
export const hoveredText = (page: Page): Promise<string[]> =>
  page.evaluate(() => Array.from((CSS.highlights as unknown as Map<string, Set<AbstractRange>>).get('word-hover') ?? []).map((r) => (r instanceof Range ? r.toString() : '')));

/**
 * Each drawn transcript word with its times (ms), as the editor has them: the word is clicked
 * (which seeks there, and selects it) and the playing word it then lights carries its times.
 * For short transcripts: one click a word.
 */
export async function wordTimes(page: Page): Promise<{ text: string; segment: number; start: number; end: number }[]> {
  const rows = page.locator('[aria-label="Transcript"] > li');
  const out = [];
  for (const w of await drawnWords(page)) {
    await clickWord(rows.nth(w.row), w.word);
    await expect.poll(async () => (await drawnWords(page)).some((d) => d.now && d.row === w.row && d.word === w.word)).toBe(true);
    const times = await page.locator('[aria-current="time"]').evaluate((el: HTMLElement) => ({ start: Number(el.dataset.start), end: Number(el.dataset.end) }));
    out.push({ text: w.text, segment: w.row, ...times });
  }
  return out;
}
