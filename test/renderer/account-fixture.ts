/** What the account tests share: reaching the top bar's account actions, which may fold behind "Menu". */
import type { Locator, Page } from 'playwright-core';

/** The top bar's `locator`, with the bar's "Menu" opened first when the action sits behind it. */
export async function inTopBar(page: Page, locator: (page: Page) => Locator): Promise<Locator> {
  const menu = page.getByRole('banner').getByRole('button', { name: 'Menu' });
  if ((await menu.count()) > 0 && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  return locator(page);
}
