import { expect, test } from './fixtures.ts';
import { DESKTOP, PHONE, signInAsAdmin } from './support.ts';

// Issue 19, item 19: what a screen reader or a keyboard met in the drawers, the lists and the SMS
// Text form.

test(`a drawer's title is one h2 with no heading inside it, and a row's name and its Edit button have different names (${DESKTOP} px)`, async ({
  page,
}) => {
  await page.setViewportSize({ width: DESKTOP, height: 900 });
  await signInAsAdmin(page, '/admin/product');
  const table = page.getByRole('table', { name: 'Products' });
  const firstRow = table.getByRole('row').nth(1);
  const edit = firstRow.getByRole('button', { name: /^Edit / });
  await expect(edit).toHaveCount(1);
  const name = ((await edit.getAttribute('aria-label')) ?? '').replace(/^Edit /, '');
  expect(name).not.toBe('');
  // The name opens the same form, named by what it shows; "Edit <name>" is the Edit button alone.
  await expect(firstRow.getByRole('button', { name: `Edit ${name}`, exact: true })).toHaveCount(1);
  await expect(firstRow.getByRole('button', { name, exact: true })).toHaveCount(1);

  await firstRow.getByRole('button', { name, exact: true }).click();
  const drawer = page.getByRole('dialog', { name: `Edit ${name}` });
  await expect(drawer.getByRole('heading', { level: 2, name: `Edit ${name}` })).toBeVisible();
  await expect(drawer.locator(':is(h1, h2, h3, h4, h5, h6) :is(h1, h2, h3, h4, h5, h6)')).toHaveCount(0);
});

test(`on a phone's card, the name and the Edit button have different names too (${PHONE} px)`, async ({ page }) => {
  await page.setViewportSize({ width: PHONE, height: 900 });
  await signInAsAdmin(page, '/admin/product');
  const card = page.getByRole('list', { name: 'Products' }).getByRole('listitem').first();
  await card.getByRole('button', { name: /^Actions for / }).click();
  const edit = card.getByRole('button', { name: /^Edit / });
  await expect(edit).toHaveCount(1);
  const name = ((await edit.getAttribute('aria-label')) ?? '').replace(/^Edit /, '');
  await expect(card.getByRole('button', { name, exact: true })).toHaveCount(1);
});

for (const width of [DESKTOP, PHONE]) {
  test(`SMS Text: an insert button puts its text at the caret and keeps the focus there; the compliance message shows once (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page, '/admin/sms-text');
    await page.getByRole('button', { name: 'Create SMS template' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create SMS template' });
    await drawer.getByRole('textbox', { name: 'Name' }).fill('Caret test');
    await drawer.getByRole('combobox', { name: 'Purpose' }).click();
    await page.getByRole('option', { name: 'Survey invite' }).click();
    const message = drawer.getByRole('textbox', { name: 'Message' });
    const inserts = drawer.getByRole('group', { name: 'Insert into the message' });

    await message.fill('Hi, how did we do? {link}');
    // The caret after "Hi": the token goes there, spaced, and the caret follows it.
    await message.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(2, 2));
    await inserts.getByRole('button', { name: '{first_name}' }).click();
    await expect(message).toHaveValue('Hi {first_name}, how did we do? {link}');
    await expect(message).toBeFocused();
    expect(await message.evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd])).toEqual([15, 15]);
    // Typing goes on where the caret is.
    await page.keyboard.type('!');
    await expect(message).toHaveValue('Hi {first_name}!, how did we do? {link}');

    // A selection is replaced.
    await message.fill('Thanks from SHOP. {link}');
    await message.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(12, 16));
    await inserts.getByRole('button', { name: '{business_name}' }).click();
    await expect(message).toHaveValue('Thanks from {business_name}. {link}');

    // A survey invite without {business_name}: its message once in the counter while typing, once
    // beside the field after a save is held back (never both at once).
    const rule = 'The Message field must include {business_name} in a survey invite';
    await message.fill('Hi {first_name}, how did we do? {link}');
    await expect(drawer.getByText(rule)).toHaveCount(1);
    await drawer.getByRole('button', { name: 'Create SMS template' }).click();
    await expect(message).toHaveAttribute('aria-invalid', 'true');
    await expect(drawer.getByText(rule)).toHaveCount(1);
  });
}
