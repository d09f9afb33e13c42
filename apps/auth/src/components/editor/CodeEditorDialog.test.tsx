// The add/edit dialog as the page uses it: the manual form and its messages, a pasted link, a Google
// export of several codes, the images of a two-image export, duplicates, editing without losing what
// the form does not show, and the confirmation before a secret changes. QR images are read by a stand-in
// here (services/qr-decode.test.ts reads real images).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { encodeMigration } from '../../services/migration.ts';
import type * as QRDecode from '../../services/qr-decode.ts';
import { decodeQRImage, QRReadError } from '../../services/qr-decode.ts';
import type { Code, CodeData } from '../../services/types.ts';
import { CodeEditorDialog, type CodeEditorDialogProps } from './CodeEditorDialog.tsx';
import { codeDataOf, codeOf } from './testing/fixtures.ts';

jest.mock('../../services/qr-decode.ts', () => {
  const actual = jest.requireActual<typeof QRDecode>('../../services/qr-decode.ts');
  return { ...actual, decodeQRImage: jest.fn() };
});

beforeAll(async () => {
  await loadNamespace('codes');
});

beforeEach(() => {
  jest.mocked(decodeQRImage).mockReset();
});

function renderDialog(props: Partial<CodeEditorDialogProps> = {}) {
  const onSave = jest.fn<(data: CodeData, original?: Code) => Promise<void>>(() => Promise.resolve());
  const onClose = jest.fn();
  const view = renderInShell(
    <CodeEditorDialog
      open={true}
      target={{ kind: 'add' }}
      codes={[]}
      onClose={onClose}
      onSave={(data, original) => onSave(data, original)}
      {...props}
    />,
  );
  return { ...view, onSave, onClose, user: userEvent.setup({ delay: null }) };
}

const dialog = () => screen.getByRole('dialog');
const field = (name: RegExp) => within(dialog()).getByRole('textbox', { name });
/** The secret field (a password field while hidden, which has no textbox role). */
const secretField = () => within(dialog()).getByLabelText(/^Secret key/);

/** The message tied to a field (aria-describedby), as a screen reader announces it. */
function descriptionOf(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(/\s+/) ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

/** Types a value in one go (as a paste), where key-by-key typing is not what the test is about. */
async function fill(user: ReturnType<typeof userEvent.setup>, element: HTMLElement, text: string) {
  await user.click(element);
  await user.paste(text);
}

/**
 * A link as typed: the field's value changes by input, not by a paste (which reads a link at once). One input event
 * for the whole link: typing it key by key took seconds per test and adds nothing the form's tests check.
 */
function typeLink(input: HTMLElement, link: string) {
  fireEvent.change(input, { target: { value: link } });
}

function pasteText(target: HTMLElement, text: string) {
  fireEvent.paste(target, { clipboardData: { getData: () => text, items: [], files: [] } });
}

function chooseImage(file: File) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [file] } });
}

describe('the manual form', () => {
  test('says what is wrong at each field, ties it to the field, and saves nothing', async () => {
    const { user, onSave } = renderDialog();
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('Some details are missing or wrong. Check the marked fields.')).toBeVisible();
    expect(field(/^Issuer/)).toHaveAttribute('aria-invalid', 'true');
    expect(descriptionOf(field(/^Issuer/))).toBe('Enter an issuer or an account.');
    expect(descriptionOf(secretField())).toBe('Enter the secret key.');
    // The first wrong field gets the focus.
    expect(field(/^Issuer/)).toHaveFocus();

    await fill(user, field(/^Issuer/), 'GitHub');
    await fill(user, secretField(), 'not base32!');
    expect(descriptionOf(secretField())).toBe(
      'This is not a valid secret key: it may only hold the letters A–Z and the digits 2–7, at least 2 of them.',
    );
    expect(field(/^Issuer/)).not.toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Advanced settings' }));
    const digits = field(/^Digits/);
    await user.clear(digits);
    await user.type(digits, '11');
    expect(descriptionOf(digits)).toBe('Enter a number from 4 to 10.');
    await user.clear(digits);
    await user.type(digits, '3');
    expect(descriptionOf(digits)).toBe('Enter a number from 4 to 10.');

    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(secretField()).toHaveFocus();
    expect(onSave).not.toHaveBeenCalled();
  });

  test('a problem shows once the field is left, not while the user is still typing elsewhere', async () => {
    const { user } = renderDialog();
    await user.type(secretField(), '1');
    expect(descriptionOf(secretField())).not.toContain('not a valid');
    await user.tab();
    expect(descriptionOf(secretField())).toContain('This is not a valid secret key');
  });

  test('saves what was typed, with the secret made canonical, then closes', async () => {
    const { user, onSave, onClose } = renderDialog({
      codes: [codeOf({ issuer: 'Old', display: { tags: ['Work', 'Home'] } })],
    });
    await fill(user, field(/^Issuer/), ' GitHub ');
    await fill(user, field(/^Account/), 'alice');
    await fill(user, secretField(), 'gezd gnbv gy3t qojq');
    await user.click(screen.getByRole('button', { name: 'Advanced settings' }));
    await user.clear(field(/^Digits/));
    await user.type(field(/^Digits/), '8');
    await user.clear(field(/^Period/));
    await user.type(field(/^Period/), '60');
    await user.type(within(dialog()).getByRole('combobox', { name: 'Tags' }), 'Wo');
    await user.click(await screen.findByRole('option', { name: 'Work' }));
    await fill(user, field(/^Note/), 'Recovery codes are in the safe');
    await user.click(within(dialog()).getByRole('switch', { name: 'Pin to the top of the list' }));
    await user.click(screen.getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSave).toHaveBeenCalledTimes(1);
    const [data, original] = onSave.mock.calls[0]!;
    expect(original).toBeUndefined();
    expect(data).toMatchObject({
      type: 'totp',
      issuer: 'GitHub',
      account: 'alice',
      secret: 'GEZDGNBVGY3TQOJQ',
      algorithm: 'sha1',
      digits: 8,
      period: 60,
    });
    expect(data.display).toMatchObject({ tags: ['Work'], note: 'Recovery codes are in the safe', pinned: true });
  });

  test('counts the characters of the note, up to 500', async () => {
    const { user } = renderDialog();
    await user.type(field(/^Note/), 'Hello');
    expect(descriptionOf(field(/^Note/))).toBe('5 of 500 characters');
    expect(field(/^Note/)).toHaveAttribute('maxlength', '500');
  });

  test('shows the reason when saving fails and stays open', async () => {
    const { user, onSave, onClose } = renderDialog({ target: { kind: 'add', initial: codeDataOf() } });
    onSave.mockRejectedValueOnce(Object.assign(new Error('offline'), { errorKey: 'editor.nothing_like_this' }));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The code could not be saved. Try again.');
    expect(onClose).not.toHaveBeenCalled();
  });
});

test('closing and opening the dialog again starts afresh', async () => {
  const target = { kind: 'add' } as const;
  function Page() {
    const [open, setOpen] = useState(true);
    return (
      <>
        <button onClick={() => setOpen(true)}>Open</button>
        <CodeEditorDialog
          open={open}
          target={target}
          codes={[]}
          onClose={() => setOpen(false)}
          onSave={() => Promise.resolve()}
        />
      </>
    );
  }
  const user = userEvent.setup({ delay: null });
  renderInShell(<Page />);
  await fill(user, field(/^Issuer/), 'Half typed');
  await user.click(screen.getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await user.click(screen.getByRole('button', { name: 'Open' }));
  expect(await screen.findByRole('dialog', { name: 'Add a code' })).toBeVisible();
  expect(field(/^Issuer/)).toHaveValue('');
});

describe('a pasted link', () => {
  test('fills the form for review', async () => {
    const { user, onSave } = renderDialog();
    const link = field(/^Link/);
    pasteText(
      link,
      'otpauth://hotp/ACME%20Co:bob@example.com?secret=JBSWY3DPEHPK3PXP&issuer=ACME%20Co&counter=5&digits=8',
    );

    expect(await screen.findByText(/The details were filled in from the code/)).toBeVisible();
    expect(field(/^Issuer/)).toHaveValue('ACME Co');
    expect(field(/^Issuer/)).toHaveFocus();
    expect(field(/^Account/)).toHaveValue('bob@example.com');
    expect(secretField()).toHaveValue('JBSWY3DPEHPK3PXP');
    expect(link).toHaveValue(
      'otpauth://hotp/ACME%20Co:bob@example.com?secret=JBSWY3DPEHPK3PXP&issuer=ACME%20Co&counter=5&digits=8',
    );

    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    expect(onSave.mock.calls[0]![0]).toMatchObject({ type: 'hotp', counter: 5, digits: 8, issuer: 'ACME Co' });
  });

  test('a link typed and read with Enter, or with the button, works the same', async () => {
    const { user } = renderDialog();
    await fill(user, field(/^Link/), 'otpauth://totp/Example:carol?secret=GEZDGNBVGY3TQOJQ');
    await user.keyboard('{Enter}');
    expect(await screen.findByDisplayValue('carol')).toBeVisible();
  });

  test('a bad link says why, at the link field, and changes nothing', async () => {
    const { user } = renderDialog();
    await fill(user, field(/^Issuer/), 'Typed');
    await fill(user, field(/^Link/), 'otpauth://totp/Example:carol?secret=1111');
    await user.click(screen.getByRole('button', { name: 'Read link' }));
    await waitFor(() => expect(field(/^Link/)).toHaveAttribute('aria-invalid', 'true'));
    expect(descriptionOf(field(/^Link/))).not.toBe('');
    expect(descriptionOf(field(/^Link/))).not.toBe(' ');
    expect(field(/^Issuer/)).toHaveValue('Typed');
  });

  test('a link typed, not read: "Add" reads it first and saves the code', async () => {
    const { user, onSave, onClose } = renderDialog();
    typeLink(field(/^Link/), 'otpauth://totp/Typed%20Co:dana?secret=JBSWY3DPEHPK3PXP&issuer=Typed%20Co&digits=8');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toMatchObject({ issuer: 'Typed Co', account: 'dana', digits: 8 });
    expect(screen.queryByText(/Some details are missing or wrong/)).not.toBeInTheDocument();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  test('a typed link that holds no code: "Add" says why at the link field and saves nothing', async () => {
    const { user, onSave } = renderDialog();
    typeLink(field(/^Link/), 'otpauth://totp/Example:carol?secret=1111');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(field(/^Link/)).toHaveAttribute('aria-invalid', 'true'));
    expect(field(/^Link/)).toHaveFocus();
    expect(descriptionOf(field(/^Link/))).toMatch(/secret/i);
    // The empty details are not what is wrong.
    expect(screen.queryByText(/Some details are missing or wrong/)).not.toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });

  test('a typed link of a code already in the list: "Add" shows it with the warning, unsaved', async () => {
    const existing = codeOf({ issuer: '\u202Emoc.elgoog', account: 'me', secret: 'JBSWY3DPEHPK3PXP' });
    const { user, onSave } = renderDialog({ codes: [existing] });
    typeLink(field(/^Link/), 'otpauth://totp/Again:me?secret=JBSWY3DPEHPK3PXP&issuer=Again');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'This code is already in your list: ⟨U+202E⟩moc.elgoog (me).',
    );
    expect(field(/^Issuer/)).toHaveValue('Again');
    expect(onSave).not.toHaveBeenCalled();
  });

  test('a link whose names hold characters that draw nothing fills the form without them', async () => {
    const { user, onSave } = renderDialog();
    pasteText(field(/^Link/), 'otpauth://totp/%E2%80%AEmoc.elgoog:a%E2%80%8Bb?secret=JBSWY3DPEHPK3PXP');
    expect(await screen.findByDisplayValue('moc.elgoog')).toBeVisible();
    expect(field(/^Account/)).toHaveValue('ab');
    await fill(user, field(/^Note/), 'hi\u2066dden');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toMatchObject({ issuer: 'moc.elgoog', account: 'ab' });
    expect(onSave.mock.calls[0]![0].display.note).toBe('hidden');
  });

  test('a Google export of three codes becomes a list, added together', async () => {
    const codes = [
      codeDataOf({ issuer: 'One', account: 'a', secret: 'JBSWY3DPEHPK3PXP' }),
      codeDataOf({ issuer: 'Two', account: 'b', secret: 'GEZDGNBVGY3TQOJQ' }),
      codeDataOf({ issuer: 'Three', account: 'c', secret: 'MFRGGZDFMZTWQ2LK' }),
    ];
    const { uris } = encodeMigration(codes, { batchId: 9 });
    const { user, onSave, onClose } = renderDialog();
    pasteText(field(/^Link/), uris[0]!);

    const heading = await screen.findByRole('heading', { name: 'Codes to add' });
    expect(heading).toHaveFocus();
    for (const name of ['One (a)', 'Two (b)', 'Three (c)']) {
      expect(screen.getByRole('checkbox', { name })).toBeChecked();
    }
    expect(screen.getByText('Selected: 3')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Add selected codes' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSave.mock.calls.map(([data]) => [data.issuer, data.account, data.secret])).toEqual([
      ['One', 'a', 'JBSWY3DPEHPK3PXP'],
      ['Two', 'b', 'GEZDGNBVGY3TQOJQ'],
      ['Three', 'c', 'MFRGGZDFMZTWQ2LK'],
    ]);
  });

  test('codes already in the vault are flagged and unchecked; trying again adds only what is left', async () => {
    const existing = codeOf({ issuer: 'Two', account: 'b', secret: 'GEZDGNBVGY3TQOJQ' });
    const { uris } = encodeMigration(
      [
        codeDataOf({ issuer: 'One', account: 'a' }),
        codeDataOf({ issuer: 'Two', account: 'b', secret: 'GEZDGNBVGY3TQOJQ' }),
      ],
      { batchId: 9 },
    );
    const { user, onSave, onClose } = renderDialog({ codes: [existing] });
    pasteText(field(/^Link/), uris[0]!);
    const duplicate = await screen.findByRole('checkbox', { name: /Two \(b\)/ });
    expect(duplicate).not.toBeChecked();
    expect(duplicate.closest('label')).toHaveTextContent('Already in your list');

    onSave.mockRejectedValueOnce(new Error('offline'));
    await user.click(duplicate);
    await user.click(screen.getByRole('button', { name: 'Add selected codes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The code could not be saved');
    await user.click(screen.getByRole('button', { name: 'Add selected codes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSave.mock.calls.map(([data]) => data.issuer)).toEqual(['One', 'One', 'Two']);
  });
});

describe('a QR code image', () => {
  test('the images of a two-image export are collected, then all codes are added', async () => {
    const codes = [
      codeDataOf({ issuer: 'First', account: 'a', secret: 'JBSWY3DPEHPK3PXP' }),
      codeDataOf({ issuer: 'Second', account: 'b', secret: 'GEZDGNBVGY3TQOJQ' }),
      codeDataOf({ issuer: 'Third', account: 'c', secret: 'MFRGGZDFMZTWQ2LK' }),
    ];
    const { uris } = encodeMigration(codes, { batchId: 42, perQR: 2 });
    expect(uris).toHaveLength(2);
    jest.mocked(decodeQRImage).mockResolvedValueOnce([uris[0]!]).mockResolvedValueOnce([uris[1]!]);
    const { user, onSave, onClose } = renderDialog();

    await user.click(screen.getByRole('button', { name: 'Choose an image…' }));
    chooseImage(new File(['first'], 'first.png', { type: 'image/png' }));
    expect(await screen.findByText('1 of 2 images read')).toBeVisible();
    expect(screen.getByRole('checkbox', { name: 'First (a)' })).toBeChecked();
    expect(screen.queryByRole('checkbox', { name: 'Third (c)' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add the next image…' }));
    chooseImage(new File(['second'], 'second.png', { type: 'image/png' }));
    expect(await screen.findByText('2 of 2 images read')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Add the next image…' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('checkbox')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Add selected codes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSave.mock.calls.map(([data]) => data.issuer)).toEqual(['First', 'Second', 'Third']);
  });

  test('an image pasted into the dialog is read, and one image of a code fills the form', async () => {
    jest.mocked(decodeQRImage).mockResolvedValueOnce(['otpauth://totp/Pasted:dave?secret=JBSWY3DPEHPK3PXP']);
    renderDialog();
    const image = new File(['png'], 'shot.png', { type: 'image/png' });
    fireEvent.paste(dialog(), {
      clipboardData: {
        getData: () => '',
        items: [{ kind: 'file', type: 'image/png', getAsFile: () => image }],
        files: [image],
      },
    });
    expect(await screen.findByDisplayValue('dave')).toBeVisible();
    expect(decodeQRImage).toHaveBeenCalledWith(image);
  });

  test('an image dropped on the page opens the dialog with it', async () => {
    jest.mocked(decodeQRImage).mockResolvedValueOnce(['otpauth://totp/Dropped:erin?secret=JBSWY3DPEHPK3PXP']);
    const image = new Blob(['png'], { type: 'image/png' });
    renderDialog({ target: { kind: 'add', image } });
    expect(await screen.findByDisplayValue('erin')).toBeVisible();
    expect(decodeQRImage).toHaveBeenCalledTimes(1);
  });

  test('an image without a QR code says so', async () => {
    jest.mocked(decodeQRImage).mockRejectedValueOnce(new QRReadError('editor.qr_none'));
    renderDialog();
    chooseImage(new File(['x'], 'cat.png', { type: 'image/png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No QR code was found in this image.');
  });

  test('a QR code that is no authenticator code says why', async () => {
    jest.mocked(decodeQRImage).mockResolvedValueOnce(['https://example.com/menu']);
    renderDialog();
    chooseImage(new File(['x'], 'menu.png', { type: 'image/png' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).not.toBe('');
  });
});

describe('duplicates', () => {
  test('a code already in the vault is flagged before saving; the user can skip or add anyway', async () => {
    const existing = codeOf({ issuer: 'GitHub', account: 'alice', secret: 'JBSWY3DPEHPK3PXP' });
    const first = renderDialog({ codes: [existing] });
    await fill(first.user, field(/^Issuer/), 'GitHub (work)');
    await fill(first.user, secretField(), 'JBSWY3DPEHPK3PXP');
    expect(screen.getByRole('status')).toHaveTextContent('This code is already in your list: GitHub (alice).');
    await first.user.click(screen.getByRole('button', { name: 'Skip' }));
    expect(first.onClose).toHaveBeenCalled();
    expect(first.onSave).not.toHaveBeenCalled();
    first.unmount();

    const second = renderDialog({ codes: [existing] });
    await fill(second.user, field(/^Issuer/), 'GitHub (work)');
    await fill(second.user, secretField(), 'JBSWY3DPEHPK3PXP');
    await second.user.click(screen.getByRole('button', { name: 'Add anyway' }));
    await waitFor(() => expect(second.onSave).toHaveBeenCalledTimes(1));
  });
});

describe('editing', () => {
  const original = () =>
    codeOf({
      issuer: 'GitHub',
      account: 'alice',
      display: {
        tags: ['Work'],
        note: 'old note',
        tapCount: 12,
        lastUsedAt: 1_700_000_000_000_000,
        position: 3,
        iconID: 'github',
        unknown: { iconColor: '#24292f', widgetOrder: [2, 1] },
      },
      unknownParams: [['image', 'https://example.com/logo.png']],
    });

  test('keeps what the form does not show: unknown display keys, usage, unknown parameters', async () => {
    const code = original();
    const { user, onSave } = renderDialog({ target: { kind: 'edit', code }, codes: [code] });
    expect(field(/^Issuer/)).toHaveFocus();
    expect(secretField()).toHaveAttribute('type', 'password');
    await user.clear(field(/^Note/));
    await fill(user, field(/^Note/), 'new note');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    const [data, passed] = onSave.mock.calls[0]!;
    expect(passed).toBe(code);
    expect(data.display).toEqual({ ...code.display, note: 'new note' });
    expect(data.display.unknown).toEqual({ iconColor: '#24292f', widgetOrder: [2, 1] });
    expect(data.unknownParams).toEqual([['image', 'https://example.com/logo.png']]);
    expect(data).not.toHaveProperty('id');
  });

  test('changing the secret asks first; only the confirmation saves', async () => {
    const code = original();
    const { user, onSave } = renderDialog({ target: { kind: 'edit', code }, codes: [code] });
    await user.click(screen.getByRole('button', { name: 'Show the secret key' }));
    await user.clear(secretField());
    await fill(user, secretField(), 'GEZDGNBVGY3TQOJQ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const confirm = await screen.findByRole('dialog', { name: 'Change the secret key?' });
    expect(onSave).not.toHaveBeenCalled();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Change the secret key?' })).not.toBeInTheDocument(),
    );
    expect(onSave).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    const again = await screen.findByRole('dialog', { name: 'Change the secret key?' });
    await user.click(within(again).getByRole('button', { name: 'Change the key' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0].secret).toBe('GEZDGNBVGY3TQOJQ');
  });

  test('an unchanged secret saves without asking; tags can be added and removed', async () => {
    const code = original();
    const { user, onSave } = renderDialog({ target: { kind: 'edit', code }, codes: [code] });
    const tags = within(dialog()).getByRole('combobox', { name: 'Tags' });
    await user.type(tags, 'Personal{Enter}');
    await user.type(tags, 'Later');
    await user.tab();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0].display.tags).toEqual(['Work', 'Personal', 'Later']);
  });

  test('switching to Steam fixes the digits', async () => {
    const code = original();
    const { user, onSave } = renderDialog({ target: { kind: 'edit', code }, codes: [code] });
    await user.click(within(dialog()).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Steam' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toMatchObject({ type: 'steam', digits: 5, period: 30, algorithm: 'sha1' });
  });
});
