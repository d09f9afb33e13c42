// The strength hint loads its estimator only when a password is typed, and reads zxcvbn's score as
// weak (< 2), moderate (2) or strong (≥ 3).
import { screen } from '@testing-library/react';

import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { strengthOfScore } from './password-strength.ts';
import { PasswordStrengthHint } from './PasswordStrengthHint.tsx';

const mockLoaded = jest.fn();
jest.mock('@zxcvbn-ts/core', () => {
  mockLoaded();
  return jest.requireActual('@zxcvbn-ts/core');
});

test('maps the score to the three levels', () => {
  expect([0, 1, 2, 3, 4].map(strengthOfScore)).toEqual(['weak', 'weak', 'moderate', 'strong', 'strong']);
});

test('loads the estimator on the first character, not before, and shows the level', async () => {
  const { rerender } = renderInShell(<PasswordStrengthHint password="" />);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(mockLoaded).not.toHaveBeenCalled();
  expect(screen.queryByText(/Password strength/)).not.toBeInTheDocument();

  rerender(<PasswordStrengthHint password="password" />);
  expect(await screen.findByText('Password strength: weak')).toBeInTheDocument();
  expect(mockLoaded).toHaveBeenCalledTimes(1);

  rerender(<PasswordStrengthHint password="correct horse battery staple" />);
  expect(await screen.findByText('Password strength: strong')).toBeInTheDocument();
  expect(screen.getByText('Password strength: strong')).toHaveAttribute('aria-live', 'polite');
  expect(mockLoaded).toHaveBeenCalledTimes(1);
});
