import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';

import { i18n } from '../i18n/i18n.ts';
import { LoadingButton } from './LoadingButton.tsx';

function renderButton(props: { loading?: boolean; done?: boolean }) {
  return render(
    <I18nextProvider i18n={i18n}>
      <LoadingButton {...props}>Save changes</LoadingButton>
    </I18nextProvider>,
  );
}

test('shows its label when idle', () => {
  renderButton({});
  const button = screen.getByRole('button', { name: 'Save changes' });
  expect(button).toBeEnabled();
  expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
});

test('shows a labelled spinner instead of the label while loading, and is disabled', () => {
  renderButton({ loading: true });
  const button = screen.getByRole('button', { name: 'Loading' });
  expect(button).toBeDisabled();
  expect(button).toHaveAttribute('aria-busy', 'true');
  expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
  // The label stays in the layout (so the width does not change) but is hidden.
  const label = screen.getByText('Save changes');
  expect(label).toHaveStyle({ visibility: 'hidden' });
  expect(label).toHaveAttribute('aria-hidden', 'true');
});

test('shows a tick instead of the label when done', () => {
  renderButton({ done: true });
  const button = screen.getByRole('button', { name: 'Done' });
  expect(button).toBeEnabled();
  expect(screen.getByText('Save changes')).toHaveStyle({ visibility: 'hidden' });
  expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
});

test('the spinner wins over the tick', () => {
  renderButton({ loading: true, done: true });
  expect(screen.getByRole('progressbar')).toBeInTheDocument();
  expect(screen.queryByRole('img', { name: 'Done' })).not.toBeInTheDocument();
});
