import InfoIcon from '@mui/icons-material/Info';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';

import { NetworkError } from '../http.ts';
import { log } from '../log.ts';
import { renderInShell } from '../testing/render-in-shell.tsx';
import { useDialog, type DialogControl } from './DialogProvider.tsx';
import type { DialogAttributes } from './types.ts';

jest.mock('../log.ts', () => ({ log: { info: jest.fn(), warn: jest.fn(), error: jest.fn() } }));

let dialogs: DialogControl;

function Opener() {
  const control = useDialog();
  useEffect(() => {
    dialogs = control;
  }, [control]);
  return null;
}

/** Shows a dialog and waits for it (its code is fetched on first use). */
async function open(attributes: DialogAttributes) {
  act(() => dialogs.showDialog(attributes));
  return screen.findByRole('dialog');
}

async function expectClosed() {
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

/** Lets the time pass in which a closing dialog (no transitions in tests) would be gone; checks it is not. */
async function expectStillOpen() {
  await act(() => jest.advanceTimersByTimeAsync(50));
  expect(screen.getByRole('dialog')).toBeInTheDocument();
}

/** A user whose pauses move jest's fake clock. */
function setupUser(options: Parameters<typeof userEvent.setup>[0] = {}) {
  return userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms), ...options });
}

function backdrop(): Element {
  const container = document.querySelector('.MuiDialog-container');
  if (!container) throw new Error('No dialog container');
  return container;
}

const basic: DialogAttributes = {
  title: 'Delete code?',
  content: 'This cannot be undone.',
  close: { text: 'Keep' },
};

beforeEach(() => {
  jest.useFakeTimers();
  renderInShell(<Opener />);
});

afterEach(() => {
  jest.useRealTimers();
  jest.mocked(log.error).mockClear();
});

test('opens with its icon, title and content, named by its title', async () => {
  const dialog = await open({ ...basic, icon: <InfoIcon data-testid="icon" /> });
  expect(dialog).toHaveAccessibleName('Delete code?');
  expect(dialog).toHaveAccessibleDescription('This cannot be undone.');
  expect(within(dialog).getByTestId('icon')).toBeInTheDocument();
});

test('opens again whenever attributes are set, also the same ones after it closed', async () => {
  const user = setupUser();
  await open(basic);
  await user.click(screen.getByRole('button', { name: 'Keep' }));
  await expectClosed();
  await open(basic);
  expect(screen.getByRole('dialog')).toHaveAccessibleName('Delete code?');
});

test('new attributes replace an open dialog', async () => {
  await open(basic);
  await open({ title: 'Second', content: 'Other text' });
  expect(screen.getByRole('dialog')).toHaveAccessibleName('Second');
  expect(screen.queryByText('This cannot be undone.')).not.toBeInTheDocument();
});

test('the close button closes it and then runs its action', async () => {
  const user = setupUser();
  const action = jest.fn();
  await open({ ...basic, close: { text: 'Keep', action } });
  await user.click(screen.getByRole('button', { name: 'Keep' }));
  expect(action).toHaveBeenCalledTimes(1);
  await expectClosed();
});

test('an extra button closes it and runs its action; a disabled one cannot be pressed', async () => {
  const user = setupUser();
  const archive = jest.fn();
  const never = jest.fn();
  await open({
    ...basic,
    buttons: [
      { text: 'Archive', action: archive },
      { text: 'Unavailable', action: never, disabled: true },
    ],
  });
  expect(screen.getByRole('button', { name: 'Unavailable' })).toBeDisabled();
  await user.click(screen.getByRole('button', { name: 'Archive' }));
  expect(archive).toHaveBeenCalledTimes(1);
  expect(never).not.toHaveBeenCalled();
  await expectClosed();
});

test('an action that opens the next dialog keeps that one open', async () => {
  const user = setupUser();
  await open({ ...basic, close: { text: 'Keep', action: () => dialogs.showDialog({ title: 'Next' }) } });
  await user.click(screen.getByRole('button', { name: 'Keep' }));
  await expectStillOpen();
  expect(screen.getByRole('dialog')).toHaveAccessibleName('Next');
});

test('a backdrop click closes it', async () => {
  const user = setupUser();
  await open(basic);
  await user.click(backdrop());
  await expectClosed();
});

test('Escape closes it', async () => {
  const user = setupUser();
  await open(basic);
  await user.keyboard('{Escape}');
  await expectClosed();
});

test('the close button of the title closes it, without running the close action', async () => {
  const user = setupUser();
  const action = jest.fn();
  await open({ ...basic, close: { text: 'Keep', action } });
  await user.click(screen.getByRole('button', { name: 'Close' }));
  await expectClosed();
  expect(action).not.toHaveBeenCalled();
});

test('with a static backdrop a backdrop click does not close it, but Escape does', async () => {
  const user = setupUser();
  await open({ ...basic, staticBackdrop: true });
  await user.click(backdrop());
  await expectStillOpen();
  await user.keyboard('{Escape}');
  await expectClosed();
});

test('with a static backdrop the title close button is there and closes it', async () => {
  const user = setupUser();
  await open({ ...basic, staticBackdrop: true });
  await user.click(screen.getByRole('button', { name: 'Close' }));
  await expectClosed();
});

test('a non-closable dialog ignores the backdrop and Escape and has no close button in the title', async () => {
  const user = setupUser();
  await open({ ...basic, nonClosable: true });
  expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  await user.click(backdrop());
  await expectStillOpen();
  await user.keyboard('{Escape}');
  await expectStillOpen();
});

test('a non-closable dialog still closes on a button press', async () => {
  const user = setupUser();
  await open({ ...basic, nonClosable: true });
  await user.click(screen.getByRole('button', { name: 'Keep' }));
  await expectClosed();
});

test('proceed shows a loading state while its action runs, then closes', async () => {
  const user = setupUser();
  let finish: () => void = () => undefined;
  const action = jest.fn(
    (_setLoading: (loading: boolean) => void) => new Promise<void>((resolve) => (finish = resolve)),
  );
  await open({ ...basic, proceed: { text: 'Delete', variant: 'critical', action } });

  await user.click(screen.getByRole('button', { name: 'Delete' }));
  expect(action).toHaveBeenCalledWith(expect.any(Function));
  const busy = screen.getByRole('button', { name: 'Loading' });
  expect(busy).toBeDisabled();
  expect(within(busy).getByRole('progressbar')).toBeInTheDocument();
  // Nothing else closes it meanwhile.
  expect(screen.getByRole('button', { name: 'Keep' })).toBeDisabled();
  await user.keyboard('{Escape}');
  await expectStillOpen();

  await act(async () => {
    finish();
    await Promise.resolve();
  });
  await expectClosed();
});

test('the proceed action can switch the loading state itself', async () => {
  const user = setupUser();
  let finish: () => void = () => undefined;
  await open({
    ...basic,
    proceed: {
      text: 'Delete',
      action: (setLoading) =>
        new Promise<void>((resolve) => {
          setLoading(false);
          finish = resolve;
        }),
    },
  });
  await user.click(screen.getByRole('button', { name: 'Delete' }));
  expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled();
  expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  await act(async () => {
    finish();
    await Promise.resolve();
  });
  await expectClosed();
});

test('a disabled proceed button cannot be pressed', async () => {
  const user = setupUser({ pointerEventsCheck: 0 });
  const action = jest.fn(() => undefined);
  await open({ ...basic, proceed: { text: 'Delete', disabled: true, action } });
  expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await user.click(screen.getByRole('button', { name: 'Delete' }));
  expect(action).not.toHaveBeenCalled();
});

test('a failing proceed action turns into the generic failure dialog', async () => {
  const user = setupUser();
  await open({ ...basic, proceed: { text: 'Delete', action: () => Promise.reject(new Error('boom')) } });
  await user.click(screen.getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(screen.getByRole('dialog')).toHaveAccessibleName('Error'));
});

test('buttons read proceed last in a row and first in a column', async () => {
  const attributes: DialogAttributes = {
    ...basic,
    buttons: [{ text: 'Archive', action: () => undefined }],
    proceed: { text: 'Delete', action: () => undefined },
  };
  const names = () =>
    within(screen.getByRole('dialog'))
      .getAllByRole('button')
      .map((button) => button.textContent)
      .filter((name) => name !== '');
  await open(attributes);
  expect(names()).toEqual(['Keep', 'Archive', 'Delete']);
  await open({ ...attributes, buttonDirection: 'column' });
  expect(names()).toEqual(['Delete', 'Archive', 'Keep']);
});

test('is at most 360px wide', async () => {
  const dialog = await open(basic);
  expect(getComputedStyle(dialog).maxWidth).toBe('360px');
});

test('a failing proceed action is logged', async () => {
  const user = setupUser();
  const failure = new Error('boom');
  await open({ ...basic, proceed: { text: 'Delete', action: () => Promise.reject(failure) } });
  await user.click(screen.getByRole('button', { name: 'Delete' }));
  await screen.findByRole('dialog', { name: 'Error' });
  expect(log.error).toHaveBeenCalledWith('A dialog action failed', failure);
});

describe('onGenericError', () => {
  test('shows the generic failure dialog: title error, the unknown message, a critical OK button', async () => {
    const user = setupUser();
    act(() => dialogs.onGenericError(new Error('boom')));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveAccessibleName('Error');
    expect(dialog).toHaveTextContent('Something went wrong, please try again.');
    const ok = within(dialog).getByRole('button', { name: 'OK' });
    expect(ok.className).toMatch(/colorCritical/);
    await user.click(ok);
    await expectClosed();
  });

  test("shows the translated message of the failure's catalogue identifier", async () => {
    act(() => dialogs.onGenericError(new NetworkError()));
    expect(await screen.findByRole('dialog')).toHaveTextContent(
      'Could not reach the server. Check your internet connection and try again.',
    );
  });

  test('logs the failure under the message given', async () => {
    const failure = new Error('boom');
    act(() => dialogs.onGenericError(failure, { message: 'Saving failed' }));
    await screen.findByRole('dialog');
    expect(log.error).toHaveBeenCalledWith('Saving failed', failure);
  });

  test('with onClose, only its OK button closes the dialog, and then onClose runs', async () => {
    const user = setupUser();
    const onClose = jest.fn();
    act(() => dialogs.onGenericError(new Error('boom'), { onClose }));
    await screen.findByRole('dialog');
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(backdrop());
    await expectStillOpen();
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await expectClosed();
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
