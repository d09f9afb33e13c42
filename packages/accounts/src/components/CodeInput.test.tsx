import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';

import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { CodeInput, onlyDigits } from './CodeInput.tsx';

function Harness({ onComplete, disabled = false }: { onComplete: (code: string) => void; disabled?: boolean }) {
  const [value, setValue] = useState('');
  return <CodeInput value={value} onChange={setValue} onComplete={onComplete} disabled={disabled} autoFocus />;
}

test('keeps only the first six digits of what comes in', () => {
  expect(onlyDigits('123 456')).toBe('123456');
  expect(onlyDigits(' 12-34 5')).toBe('12345');
  expect(onlyDigits('code: 1234567')).toBe('123456');
  expect(onlyDigits('abc')).toBe('');
});

test('is one field for the browser to fill with a one-time code, on a numeric keyboard', () => {
  renderInShell(<Harness onComplete={jest.fn()} />);
  const field = screen.getByRole('textbox', { name: '6-digit code' });
  expect(field).toHaveAttribute('autocomplete', 'one-time-code');
  expect(field).toHaveAttribute('inputmode', 'numeric');
  expect(field).not.toHaveAttribute('maxlength');
  expect(field).toHaveFocus();
});

test('submits by itself at the sixth typed digit, once, and ignores letters', async () => {
  const onComplete = jest.fn();
  const user = userEvent.setup();
  renderInShell(<Harness onComplete={onComplete} />);
  const field = screen.getByRole('textbox', { name: '6-digit code' });
  await user.type(field, '12a345');
  expect(field).toHaveValue('12345');
  expect(onComplete).not.toHaveBeenCalled();
  await user.type(field, '67');
  expect(field).toHaveValue('123456');
  expect(onComplete).toHaveBeenCalledTimes(1);
  expect(onComplete).toHaveBeenCalledWith('123456');
});

test.each(['123456', '123 456', ' 123 456 '])('a pasted "%s" is the code 123456 and submits', async (pasted) => {
  const onComplete = jest.fn();
  const user = userEvent.setup();
  renderInShell(<Harness onComplete={onComplete} />);
  const field = screen.getByRole('textbox', { name: '6-digit code' });
  await user.click(field);
  await user.paste(pasted);
  expect(field).toHaveValue('123456');
  expect(onComplete).toHaveBeenCalledWith('123456');
});

test('is disabled while the page works, and takes the focus back afterwards', async () => {
  function Switchable() {
    const [disabled, setDisabled] = useState(true);
    return (
      <>
        <Harness onComplete={jest.fn()} disabled={disabled} />
        <button onClick={() => setDisabled(false)}>done</button>
      </>
    );
  }
  const user = userEvent.setup();
  renderInShell(<Switchable />);
  const field = screen.getByRole('textbox', { name: '6-digit code' });
  expect(field).toBeDisabled();
  await user.click(screen.getByRole('button', { name: 'done' }));
  expect(field).toBeEnabled();
  expect(field).toHaveFocus();
});
