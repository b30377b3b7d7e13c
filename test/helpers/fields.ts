/** Caption fields drawn as text until focused (renderer/src/lib/useFieldAsText.ts), read and typed in either form. */
import type { Locator } from 'playwright-core';

/** The field's text: the control's value while it is one, else the text drawn. */
export const fieldValue = (field: Locator): Promise<string> =>
  field.evaluate((el) => (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : (el.textContent ?? '')));

/** Focus the field, which turns it into its control, and fill that. */
export async function fillField(field: Locator, value: string): Promise<void> {
  await field.focus();
  await field.and(field.page().locator('input, textarea')).waitFor({ timeout: 5_000 });
  await field.fill(value);
}

/** Whether the field refuses typing (a finished document): a read-only control or text marked aria-readonly. */
export const isReadOnly = (field: Locator): Promise<boolean> =>
  field.evaluate((el) => (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.readOnly : el.getAttribute('aria-readonly') === 'true'));

