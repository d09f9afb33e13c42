import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import type { Code, VaultItem } from '../services/types.ts';
import { itemOf } from '../vault/vault.ts';
import { fakeCode, fakeVault, itemsOf, type FakeVault } from './list/testing/fake-vault.ts';
import { OpenVault, VaultView } from './VaultPage.tsx';

// RFC 6238 Appendix B: T = 1111111109 s gives 07081804 (SHA-1, 8 digits); the next period 14050471.
const rfcTime = 1_111_111_109_000;

const writeText = jest.fn((text: string) => Promise.resolve(text && undefined));

beforeAll(async () => {
  await loadNamespace('codes');
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  // jsdom does not scroll; the virtualizer may ask it to.
  window.scrollTo = jest.fn();
});

beforeEach(() => {
  jest.useFakeTimers({ now: rfcTime });
  localStorage.clear();
  writeText.mockClear();
});

afterEach(() => {
  jest.useRealTimers();
});

function show(vault: FakeVault) {
  return renderInShell(<VaultView vault={vault} />);
}

function cards(): HTMLElement[] {
  return within(screen.getByRole('list', { name: 'Codes' }))
    .getAllByRole('listitem')
    .filter((item) => item.dataset.codeId !== undefined);
}

function card(name: string): HTMLElement {
  return screen.getByRole('listitem', { name: new RegExp(name) });
}

async function flush() {
  await act(async () => {
    await Promise.resolve();
  });
}

test('a card shows the code of the fixed clock, grouped, and the next one', () => {
  show(fakeVault(itemsOf([fakeCode({ issuer: 'RFC', digits: 8 })])));
  const item = card('RFC');
  expect(within(item).getByTestId('current-code')).toHaveTextContent('070 818 04');
  expect(within(item).getByTestId('next-code')).toHaveTextContent('140 504 71');
});

test('the codes change at the period boundary, driven by the shared clock', () => {
  show(fakeVault(itemsOf([fakeCode({ issuer: 'RFC', digits: 8 })])));
  // 1111111109 is 29 s into its period: one second later the next period starts (the tick comes 1 ms
  // after the boundary).
  act(() => {
    jest.advanceTimersByTime(999);
  });
  expect(within(card('RFC')).getByTestId('current-code')).toHaveTextContent('070 818 04');
  act(() => {
    jest.advanceTimersByTime(2);
  });
  expect(within(card('RFC')).getByTestId('current-code')).toHaveTextContent('140 504 71');
});

test('HOTP shows the counter and counter + 1, with a full static bar', () => {
  show(fakeVault(itemsOf([fakeCode({ issuer: 'Counter', type: 'hotp', counter: 0 })])));
  const item = card('Counter');
  expect(within(item).getByTestId('current-code')).toHaveTextContent('755 224');
  expect(within(item).getByTestId('next-code')).toHaveTextContent('287 082');
});

test('the bar takes the warning colour when less than 40 % of the period is left', () => {
  // 29 s into a 30 s period.
  show(fakeVault(itemsOf([fakeCode({ issuer: 'Late' }), fakeCode({ issuer: 'Long', period: 60 })])));
  expect(card('Late').querySelector('[data-warn]')).not.toBeNull();
  // 1111111109 mod 60 = 29: 31 s of 60 left.
  expect(card('Long').querySelector('[data-warn]')).toBeNull();
});

test('a click or Enter or C copies the current code; N copies the next one; a toast confirms', async () => {
  show(fakeVault(itemsOf([fakeCode({ issuer: 'RFC', digits: 8 })])));
  fireEvent.click(card('RFC'));
  await flush();
  expect(writeText).toHaveBeenLastCalledWith('07081804');
  expect(screen.getByText('Copied')).toBeInTheDocument();
  fireEvent.keyDown(card('RFC'), { key: 'Enter' });
  fireEvent.keyDown(card('RFC'), { key: 'c' });
  await flush();
  expect(writeText).toHaveBeenCalledTimes(3);
  fireEvent.keyDown(card('RFC'), { key: 'n' });
  await flush();
  expect(writeText).toHaveBeenLastCalledWith('14050471');
  expect(screen.getByText('Next code copied')).toBeInTheDocument();
  act(() => {
    jest.advanceTimersByTime(2100);
  });
  expect(screen.queryByText('Next code copied')).not.toBeInTheDocument();
});

test('copying records the use while the list is in "recently used" order, and only then', async () => {
  const unordered = fakeVault(itemsOf([fakeCode({ issuer: 'RFC' })]));
  const view = show(unordered);
  fireEvent.click(card('RFC'));
  await flush();
  await flush();
  expect(unordered.update).not.toHaveBeenCalled();
  view.unmount();

  localStorage.setItem('authDisplay', JSON.stringify({ sort: 'recent' }));
  const vault = fakeVault(itemsOf([fakeCode({ issuer: 'RFC' })]));
  show(vault);
  fireEvent.click(card('RFC'));
  await flush();
  await flush();
  expect(vault.update).toHaveBeenCalledTimes(1);
  const data = vault.update.mock.calls[0]?.[1];
  expect(data?.display.tapCount).toBe(1);
  expect(data?.display.lastUsedAt).toBe(rfcTime * 1000);
});

test('the clock follows the vault time offset', () => {
  // 1 s ahead on the server: the next period has started.
  show(fakeVault(itemsOf([fakeCode({ issuer: 'RFC', digits: 8 })]), { timeOffsetMs: 1000 }));
  expect(within(card('RFC')).getByTestId('current-code')).toHaveTextContent('140 504 71');
});

test('arrow keys move the focus between cards (one card in the tab order)', () => {
  show(fakeVault(itemsOf(['A', 'B', 'C'].map((issuer) => fakeCode({ issuer })))));
  const [a, b, c] = cards();
  expect(a).toHaveAttribute('tabindex', '0');
  expect(b).toHaveAttribute('tabindex', '-1');
  act(() => a!.focus());
  fireEvent.keyDown(a!, { key: 'ArrowDown' });
  expect(b).toHaveFocus();
  fireEvent.keyDown(b!, { key: 'End' });
  expect(c).toHaveFocus();
  expect(c).toHaveAttribute('tabindex', '0');
  fireEvent.keyDown(c!, { key: 'ArrowUp' });
  expect(b).toHaveFocus();
  expect(b).toHaveAttribute('aria-posinset', '2');
  expect(b).toHaveAttribute('aria-setsize', '3');
});

test('/ focuses the search, which finds by issuer, account, note and tag; Esc clears it', () => {
  show(
    fakeVault(
      itemsOf([
        fakeCode({ issuer: 'GitHub', account: 'octo' }),
        fakeCode({ issuer: 'Bank', display: { note: 'savings account' } }),
        fakeCode({ issuer: 'Mail', display: { tags: ['work'] } }),
      ]),
    ),
  );
  fireEvent.keyDown(document.body, { key: '/' });
  const search = screen.getByRole('searchbox', { name: 'Search codes' });
  expect(search).toHaveFocus();
  fireEvent.change(search, { target: { value: 'octo' } });
  expect(cards().map((item) => item.textContent)).toEqual([expect.stringContaining('GitHub')]);
  fireEvent.change(search, { target: { value: 'savings' } });
  expect(cards()).toHaveLength(1);
  fireEvent.change(search, { target: { value: 'work' } });
  expect(cards()[0]).toHaveTextContent('Mail');
  fireEvent.keyDown(search, { key: 'Escape' });
  expect(search).toHaveValue('');
  expect(cards()).toHaveLength(3);
});

test('tag chips filter: several chips keep the codes that carry all of them', () => {
  show(
    fakeVault(
      itemsOf([
        fakeCode({ issuer: 'One', display: { tags: ['work'] } }),
        fakeCode({ issuer: 'Two', display: { tags: ['work', 'bank'] } }),
        fakeCode({ issuer: 'Three', display: { tags: ['bank'] } }),
      ]),
    ),
  );
  const chips = screen.getByRole('group', { name: 'Filter by tag' });
  fireEvent.click(within(chips).getByRole('button', { name: 'work' }));
  expect(cards().map((item) => item.dataset.codeId)).toHaveLength(2);
  expect(within(chips).getByRole('button', { name: 'work' })).toHaveAttribute('aria-pressed', 'true');
  fireEvent.click(within(chips).getByRole('button', { name: 'bank' }));
  expect(cards()).toHaveLength(1);
  expect(cards()[0]).toHaveTextContent('Two');
  fireEvent.keyDown(document.body, { key: 'Escape' });
  expect(cards()).toHaveLength(3);
});

test('sort by issuer or account, pinned first, remembered on this device', () => {
  show(
    fakeVault(
      itemsOf([
        fakeCode({ issuer: 'Beta', account: 'a' }),
        fakeCode({ issuer: 'Alpha', account: 'c' }),
        fakeCode({ issuer: 'Gamma', account: 'b', display: { pinned: true } }),
      ]),
    ),
  );
  const issuers = () => cards().map((item) => within(item).getAllByText(/Alpha|Beta|Gamma/)[0]?.textContent);
  expect(issuers()).toEqual(['Gamma', 'Alpha', 'Beta']);
  fireEvent.click(screen.getByRole('button', { name: /Sort: Issuer/ }));
  fireEvent.click(screen.getByRole('menuitemradio', { name: 'Account' }));
  expect(issuers()).toEqual(['Gamma', 'Beta', 'Alpha']);
  expect(JSON.parse(localStorage.getItem('authDisplay') ?? '{}')).toMatchObject({ sort: 'account' });
});

test('manual order: Alt+ArrowDown moves a card, writes the new positions and announces it', async () => {
  localStorage.setItem('authDisplay', JSON.stringify({ sort: 'manual' }));
  const codes = ['A', 'B', 'C'].map((issuer, position) => fakeCode({ issuer, display: { position } }));
  const vault = fakeVault(itemsOf(codes));
  show(vault);
  const [a] = cards();
  act(() => a!.focus());
  fireEvent.keyDown(a!, { key: 'ArrowDown', altKey: true });
  // Shown at once, before the writes finish.
  expect(cards().map((item) => item.dataset.codeId)).toEqual([codes[1]!.id, codes[0]!.id, codes[2]!.id]);
  await waitFor(() => expect(vault.update).toHaveBeenCalledTimes(2));
  const positions = vault.update.mock.calls.map(([code, data]) => [code.id, data.display.position]);
  expect(positions).toEqual(
    expect.arrayContaining([
      [codes[0]!.id, 1],
      [codes[1]!.id, 0],
    ]),
  );
  expect(screen.getByText(/A moved to position 2 of 3/)).toBeInTheDocument();
  expect(card('A')).toHaveFocus();
});

test('in the trash: restore, and delete forever after a confirmation', async () => {
  const kept = fakeCode({ issuer: 'Kept' });
  const old = fakeCode({ issuer: 'Old', display: { trashed: true } });
  const gone = fakeCode({ issuer: 'Gone', display: { trashed: true } });
  const vault = fakeVault(itemsOf([kept, old, gone]));
  show(vault);
  expect(cards()).toHaveLength(1);
  fireEvent.click(screen.getByRole('button', { name: 'Trash (2)' }));
  const trash = screen.getByRole('list', { name: 'Trash' });
  expect(within(trash).getAllByRole('listitem')).toHaveLength(2);
  fireEvent.click(screen.getByRole('button', { name: 'Restore Old' }));
  await waitFor(() => expect(vault.update).toHaveBeenCalledTimes(1));
  expect(vault.update.mock.calls[0]?.[1].display.trashed).toBe(false);

  fireEvent.click(screen.getByRole('button', { name: 'Delete Gone forever' }));
  const dialog = await screen.findByRole('dialog');
  expect(dialog).toHaveTextContent('Gone will be deleted from all your devices');
  expect(vault.deleteForever).not.toHaveBeenCalled();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Delete forever' }));
  await waitFor(() => expect(vault.deleteForever).toHaveBeenCalledWith(gone.id, gone.updatedAt));
});

test('the card menu pins and moves a code to the trash', async () => {
  const code = fakeCode({ issuer: 'Menu' });
  const vault = fakeVault(itemsOf([code]));
  show(vault);
  fireEvent.click(screen.getByRole('button', { name: 'Actions for Menu' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Pin' }));
  await waitFor(() => expect(vault.update).toHaveBeenCalledTimes(1));
  expect(vault.update.mock.calls[0]?.[1].display.pinned).toBe(true);
  fireEvent.click(screen.getByRole('button', { name: 'Actions for Menu' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Move to trash' }));
  await waitFor(() => expect(vault.update).toHaveBeenCalledTimes(2));
  // Written over the vault's latest version of the code (the pin's updatedAt).
  const [written, data] = vault.update.mock.calls[1]!;
  expect(written.display.pinned).toBe(true);
  expect(data.display.trashed).toBe(true);
});

test('read-only: a banner says why, editing is disabled, copying still works', async () => {
  const vault = fakeVault(itemsOf([fakeCode({ issuer: 'Offline' })]), { readOnlyReason: 'offline' });
  show(vault);
  expect(screen.getByTestId('read-only-banner')).toHaveTextContent('You are offline');
  expect(screen.getByRole('button', { name: 'Add code' })).toBeDisabled();
  fireEvent.click(screen.getByRole('button', { name: 'Actions for Offline' }));
  expect(await screen.findByRole('menuitem', { name: 'Edit' })).toHaveAttribute('aria-disabled', 'true');
  expect(screen.getByRole('menuitem', { name: 'Move to trash' })).toHaveAttribute('aria-disabled', 'true');
  fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
  fireEvent.click(card('Offline'));
  await flush();
  expect(writeText).toHaveBeenCalled();
  // No usage write while read-only.
  expect(vault.update).not.toHaveBeenCalled();
});

test('an unreadable entity shows its error and copies its raw data', async () => {
  const broken: VaultItem = {
    kind: 'broken',
    item: { id: 'broken-1', updatedAt: 1, raw: 'not a code', issuer: 'Mystery', errorKey: 'vault.notACode' },
  };
  show(fakeVault([...itemsOf([fakeCode({ issuer: 'Fine' })]), broken]));
  const item = card('Mystery');
  expect(item).toHaveTextContent('This entry does not hold a code.');
  fireEvent.click(within(item).getByRole('button', { name: 'Copy raw data of Mystery' }));
  await flush();
  expect(writeText).toHaveBeenCalledWith('not a code');
});

test('an entity whose code carries a refused value names the value, never a raw placeholder', () => {
  const uri = 'otpauth://totp/Broken%20Co:bob?secret=JBSWY3DPEHPK3PXP&issuer=Broken%20Co&digits=12&period=9x';
  show(fakeVault([itemOf('entity-1', 1, JSON.stringify(uri))]));
  const item = card('Broken Co');
  expect(item.textContent).not.toMatch(/\{\{|\}\}/);
  expect(item).toHaveTextContent('The number of digits must be between 4 and 10, not “12”.');
});

test('names that lie about themselves show their hidden characters as markers, each isolated', () => {
  show(
    fakeVault(
      itemsOf([
        fakeCode({
          issuer: '\u202Emoc.elgoog',
          account: 'ali\u200Bce',
          display: { tags: ['\u2066work\u2069'], note: 'see\uFEFF' },
        }),
      ]),
    ),
  );
  const item = screen.getByRole('listitem', { name: '⟨U+202E⟩moc.elgoog ali⟨U+200B⟩ce' });
  expect(item.textContent).not.toMatch(/[\u202E\u200B\u2066\u2069\uFEFF]/u);
  expect(item).toHaveTextContent('⟨U+2066⟩work⟨U+2069⟩');
  expect(item).toHaveTextContent('see⟨U+FEFF⟩');
  const isolated = Array.from(item.querySelectorAll('bdi'), (element) => element.textContent);
  expect(isolated).toEqual(['⟨U+202E⟩moc.elgoog', 'ali⟨U+200B⟩ce', '⟨U+2066⟩work⟨U+2069⟩', 'see⟨U+FEFF⟩']);
  expect(within(item).getByRole('button', { name: 'Actions for ⟨U+202E⟩moc.elgoog' })).toBeInTheDocument();
  const chips = screen.getByRole('group', { name: 'Filter by tag' });
  expect(within(chips).getByRole('button', { name: '⟨U+2066⟩work⟨U+2069⟩' })).toBeInTheDocument();
});

test('300 tags: the card shows ten and counts the rest; the bar shows ten chips and the rest on demand', () => {
  const tags = Array.from({ length: 300 }, (_, index) => `tag${String(index).padStart(3, '0')}`);
  show(fakeVault(itemsOf([fakeCode({ issuer: 'Tagged', display: { tags } }), fakeCode({ issuer: 'Plain' })])));
  const onCard = within(within(card('Tagged')).getByRole('list', { name: 'Tags' })).getAllByRole('listitem');
  expect(onCard.map((item) => item.textContent)).toEqual([...tags.slice(0, 10), '+290 more']);

  const chips = screen.getByRole('group', { name: 'Filter by tag' });
  const chipNames = () =>
    within(chips)
      .getAllByRole('button')
      .filter((button) => /^tag\d+$/.test(button.textContent))
      .map((button) => button.textContent);
  expect(chipNames()).toEqual(tags.slice(0, 10));
  const more = within(chips).getByRole('button', { name: 'More tags (290)' });
  expect(more).toHaveAttribute('aria-expanded', 'false');
  more.focus();
  fireEvent.click(more);
  expect(chipNames()).toEqual(tags);
  const fewer = within(chips).getByRole('button', { name: 'Fewer tags' });
  expect(fewer).toHaveAttribute('aria-expanded', 'true');
  expect(fewer).toHaveFocus();

  // A chosen tag past the first ten stays in the bar when the rest fold away.
  fireEvent.click(within(chips).getByRole('button', { name: 'tag250' }));
  fireEvent.click(within(chips).getByRole('button', { name: 'Fewer tags' }));
  expect(chipNames()).toEqual([...tags.slice(0, 10), 'tag250']);
  expect(within(chips).getByRole('button', { name: 'tag250' })).toHaveAttribute('aria-pressed', 'true');
  expect(within(chips).getByRole('button', { name: 'More tags (289)' })).toBeInTheDocument();
  expect(cards()).toHaveLength(1);
});

test('an empty vault invites adding a code, without search or sort', () => {
  show(fakeVault([]));
  expect(screen.getByText('No codes yet')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Add your first code' })).toBeEnabled();
  expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /Sort/ })).not.toBeInTheDocument();
});

test('hidden codes: masked until a click reveals one for a few seconds (and copies it)', async () => {
  localStorage.setItem('authDisplay', JSON.stringify({ hideCodes: true }));
  show(fakeVault(itemsOf([fakeCode({ issuer: 'Secret', digits: 8 })])));
  const current = () => within(card('Secret')).getByTestId('current-code');
  expect(current()).not.toHaveTextContent('070');
  expect(current()).toHaveTextContent('Hidden code');
  fireEvent.click(card('Secret'));
  await flush();
  expect(writeText).toHaveBeenCalledWith('07081804');
  expect(current()).toHaveTextContent('070 818 04');
  act(() => {
    jest.advanceTimersByTime(5000);
  });
  expect(current()).not.toHaveTextContent('070');
});

test('virtualized: of 10,000 codes only a window is in the page, and End reaches the last', () => {
  const codes: Code[] = Array.from({ length: 10_000 }, (_, i) =>
    fakeCode({ issuer: `Issuer ${String(i).padStart(5, '0')}` }),
  );
  show(fakeVault(itemsOf(codes)));
  const rendered = cards();
  expect(rendered.length).toBeGreaterThan(3);
  expect(rendered.length).toBeLessThan(30);
  expect(rendered[0]).toHaveAttribute('aria-setsize', '10000');
  act(() => rendered[0]!.focus());
  fireEvent.keyDown(rendered[0]!, { key: 'End' });
  const last = card('Issuer 09999');
  expect(last).toHaveFocus();
  expect(last).toHaveAttribute('aria-posinset', '10000');
});

test('manual order by drag and drop', async () => {
  localStorage.setItem('authDisplay', JSON.stringify({ sort: 'manual' }));
  const codes = ['A', 'B', 'C'].map((issuer, position) => fakeCode({ issuer, display: { position } }));
  const vault = fakeVault(itemsOf(codes));
  show(vault);
  const [a, , c] = cards();
  expect(a).toHaveAttribute('draggable', 'true');
  const dataTransfer = { setData: jest.fn(), effectAllowed: '', dropEffect: '' };
  fireEvent.dragStart(a!, { dataTransfer });
  // Below the middle of C (jsdom lays nothing out: every box is at 0 with no height).
  fireEvent.dragOver(c!, { dataTransfer, clientY: 10 });
  fireEvent.drop(c!, { dataTransfer, clientY: 10 });
  expect(cards().map((item) => item.dataset.codeId)).toEqual([codes[1]!.id, codes[2]!.id, codes[0]!.id]);
  await waitFor(() => expect(vault.update).toHaveBeenCalledTimes(3));
});

test('cards cannot be dragged outside manual order', () => {
  show(fakeVault(itemsOf([fakeCode({ issuer: 'A' }), fakeCode({ issuer: 'B' })])));
  expect(cards()[0]).toHaveAttribute('draggable', 'false');
});

test('Add code (or the A key) opens the editor; display options are saved for this device', async () => {
  show(fakeVault(itemsOf([fakeCode({ issuer: 'A' })])));
  fireEvent.keyDown(document.body, { key: 'a' });
  expect(await screen.findByRole('dialog')).toBeInTheDocument();
  fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  fireEvent.click(screen.getByRole('button', { name: 'Display options' }));
  fireEvent.click(await screen.findByRole('switch', { name: 'Compact cards' }));
  expect(JSON.parse(localStorage.getItem('authDisplay') ?? '{}')).toMatchObject({ compact: true });
  fireEvent.keyDown(screen.getByRole('dialog', { name: 'Display options' }), { key: 'Escape' });
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(card('A').querySelector('[data-compact]')).not.toBeNull();
});

test('a vault that closes (lock, logout) unmounts the whole view, an open editor included; what stays says the tab is locked', async () => {
  const vault = fakeVault(itemsOf([fakeCode({ issuer: 'Closing', secret: 'JBSWY3DPEHPK3PXP' })]));
  const onReopen = jest.fn();
  renderInShell(<OpenVault vault={vault} onReopen={onReopen} />);
  fireEvent.click(screen.getByRole('button', { name: 'Actions for Closing' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
  const editor = await screen.findByRole('dialog');
  expect(within(editor).getByLabelText(/^Secret key/)).toHaveValue('JBSWY3DPEHPK3PXP');

  // What the vault's close() does to its snapshot; the fake keeps its items, so only unmounting hides them.
  act(() => vault.set({ status: 'failed', readOnlyReason: 'locked' }));
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(screen.queryByRole('list', { name: 'Codes' })).toBeNull();
  expect(document.body).not.toHaveTextContent('Closing');
  expect(screen.getByRole('alert')).toHaveTextContent('This tab is locked. Enter your password to see your codes.');
  fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(onReopen).toHaveBeenCalledTimes(1);
});
