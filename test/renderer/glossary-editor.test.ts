/**
 * Glossaries made and edited in the app, in real Chromium against the browser-mode app and its
 * local service: the New transcription dialog's glossary editor saves a glossary with its terms on
 * the service, picks it for the transcription, and edits it again. Screenshots of the editor,
 * light and dark, at 1280×800 and 800×600, go to /tmp/shots/speech-truth/.
 */
import { describe, expect, it } from 'vitest';
import { LOCAL_DEMO } from '../helpers/app';
import { serviceLogin } from '../helpers/service';
import { appAndBrowserPerFile, shootLooks, submitSignIn } from '../helpers/ui';

const SHOTS = '/tmp/shots/speech-truth';
const run = appAndBrowserPerFile();

async function serviceGlossaries(): Promise<{ id: number; name: string; entries: { source: string; target: string }[] }[]> {
  const auth = { authorization: `Bearer ${await serviceLogin(run.app.serviceUrl, LOCAL_DEMO)}` };
  const list = (await (await fetch(`${run.app.serviceUrl}/api/v4/glossaries`, { headers: auth })).json()) as { result: { id: number }[] };
  return Promise.all(list.result.map(async (g) => ((await (await fetch(`${run.app.serviceUrl}/api/v4/glossaries/${g.id}?include_entries=true`, { headers: auth })).json()) as { result: { id: number; name: string; entries: { source: string; target: string }[] } }).result));
}

describe('the glossary editor', () => {
  it('makes a glossary on the service, picks it, and edits its terms', async () => {
    const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(await run.app.newUrl());
    await submitSignIn(page);
    await page.getByRole('banner').getByRole('button', { name: 'New transcription' }).click();
    const dialog = page.getByRole('dialog', { name: 'New transcription' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Make a glossary…' }).click();
    const editor = dialog.getByRole('group', { name: 'Glossaries' });
    // Saving without terms is refused, in words.
    await editor.getByLabel('Name', { exact: true }).fill('Products');
    await editor.getByRole('button', { name: 'Save glossary' }).click();
    await expect.poll(() => editor.getByRole('alert').textContent()).toBe('Add at least one term, one a line.');
    await editor.getByLabel(/^Terms, one a line/).fill('Zorbatron\nQuillamex = Quilamex');
    await editor.getByRole('button', { name: 'Save glossary' }).click();
    await expect.poll(() => editor.getByRole('status').textContent()).toBe('Saved "Products" with 2 terms.');
    let stored = await serviceGlossaries();
    expect(stored.map((g) => [g.name, g.entries])).toEqual([['Products', [{ source: 'Zorbatron', target: 'Zorbatron' }, { source: 'Quillamex', target: 'Quilamex' }]]]);
    // The new glossary is the dialog's choice.
    await expect.poll(() => dialog.getByLabel('Glossary', { exact: true }).evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Products (en)');

    await shootLooks(page, SHOTS, 'glossary-editor', () => editor.scrollIntoViewIfNeeded());

    // Edited again: the terms replace the old ones on the service.
    await editor.getByLabel(/^Terms, one a line/).fill('Zorbatron\nVantrelix');
    await editor.getByRole('button', { name: 'Save glossary' }).click();
    await expect.poll(() => editor.getByRole('status').textContent()).toBe('Saved "Products" with 2 terms.');
    await expect.poll(async () => (await serviceGlossaries())[0].entries.map((e) => e.source)).toEqual(['Zorbatron', 'Vantrelix']);
    stored = await serviceGlossaries();
    expect(stored).toHaveLength(1);
  }, 120_000);
});
