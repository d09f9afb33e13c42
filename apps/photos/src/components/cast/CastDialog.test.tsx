import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { ApiError, NetworkError } from '@ente/shared/http.ts';
import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { CastDialog, type CastActions } from './CastDialog.tsx';

beforeAll(() => loadNamespace('photos'));

function renderCast(actions: Partial<CastActions> = {}) {
  const calls: string[] = [];
  const all: CastActions = {
    cast: (code) => (calls.push(`cast ${code}`), actions.cast?.(code) ?? Promise.resolve()),
    stop: () => (calls.push('stop'), actions.stop?.() ?? Promise.resolve()),
  };
  renderInShell(
    <CastDialog
      open
      albumName="Trip"
      castPageURL="https://cast.example.org/"
      actions={all}
      onClose={() => undefined}
    />,
  );
  const dialog = () => screen.getByRole('dialog', { name: 'Play “Trip” on a screen' });
  return { calls, dialog };
}

const apiError = (status: number) => new ApiError('', status === 404 ? 'NOT_FOUND' : '', status);

test('says where the screen opens the cast page; a typed code in any case plays, and Stop stops', async () => {
  const user = userEvent.setup();
  const { calls, dialog } = renderCast();
  const steps = within(dialog()).getByRole('list', { name: 'On the screen' });
  expect(within(steps).getByText('https://cast.example.org/')).toBeInTheDocument();
  const field = within(dialog()).getByRole('textbox', { name: 'Code on the screen' });
  expect(field).toHaveFocus();
  await user.keyboard(' ab3xy9 {Enter}');
  expect(calls).toEqual(['cast AB3XY9']);
  expect(await within(dialog()).findByText('The screen is playing the album.')).toBeInTheDocument();
  expect(within(dialog()).getByRole('button', { name: 'Stop' })).toHaveFocus();
  await user.keyboard('{Enter}');
  expect(calls).toEqual(['cast AB3XY9', 'stop']);
  expect(await within(dialog()).findByText('Stopped. The screen shows a new code.')).toBeInTheDocument();
  expect(within(dialog()).getByRole('textbox', { name: 'Code on the screen' })).toHaveValue('');
  expect(within(dialog()).getByRole('textbox', { name: 'Code on the screen' })).toHaveFocus();
});

test('a code that is not six letters and digits is said under the field, and nothing is sent', async () => {
  const user = userEvent.setup();
  const { calls, dialog } = renderCast();
  const field = within(dialog()).getByRole('textbox', { name: 'Code on the screen' });
  for (const typed of ['ABC12', 'ABC1234', 'AB-123']) {
    await user.clear(field);
    await user.type(field, `${typed}{Enter}`);
    expect(field).toHaveAccessibleDescription('Enter the six letters and digits the screen shows.');
    expect(field).toBeInvalid();
  }
  expect(calls).toEqual([]);
  await user.type(field, 'x');
  expect(field).not.toBeInvalid();
});

const failures: [Error, 'field' | 'alert', string][] = [
  [apiError(404), 'field', 'No screen shows this code, or it has expired. Check the code on the screen.'],
  [apiError(403), 'alert', 'Too many screens are playing your albums. Stop one and try again.'],
  [apiError(429), 'alert', 'Too many tries. Wait a minute and try again.'],
  [new NetworkError(), 'alert', 'No connection to the server. Check your network and try again.'],
  [apiError(500), 'alert', 'That did not work. Please try again.'],
];

test.each(failures)(
  'a failed pairing (%p) is said in words and the code can be sent again',
  async (error, where, says) => {
    const user = userEvent.setup();
    let fail = true;
    const { calls, dialog } = renderCast({ cast: () => (fail ? Promise.reject(error) : Promise.resolve()) });
    const field = within(dialog()).getByRole('textbox', { name: 'Code on the screen' });
    await user.type(field, 'ABCDEF{Enter}');
    if (where === 'field') {
      await screen.findByText(says);
      expect(field).toHaveAccessibleDescription(says);
    } else {
      expect(await within(dialog()).findByRole('alert')).toHaveTextContent(says);
    }
    expect(within(dialog()).queryByText('The screen is playing the album.')).not.toBeInTheDocument();
    fail = false;
    await user.click(within(dialog()).getByRole('button', { name: 'Play' }));
    expect(calls).toEqual(['cast ABCDEF', 'cast ABCDEF']);
    expect(await within(dialog()).findByText('The screen is playing the album.')).toBeInTheDocument();
  },
);

test('a failed stop keeps the Stop button and says why', async () => {
  const user = userEvent.setup();
  const { dialog } = renderCast({ stop: () => Promise.reject(new NetworkError()) });
  await user.type(within(dialog()).getByRole('textbox', { name: 'Code on the screen' }), 'ABCDEF{Enter}');
  await user.click(await within(dialog()).findByRole('button', { name: 'Stop' }));
  expect(await within(dialog()).findByText(/No connection to the server/)).toBeInTheDocument();
  expect(within(dialog()).getByRole('button', { name: 'Stop' })).toBeEnabled();
});
