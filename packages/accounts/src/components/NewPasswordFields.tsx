// A new password and its confirmation, with the strength hint between them: sign-up, the interrupted
// sign-up's /generate and /change-password. `useNewPassword` keeps the two values and what is wrong with
// each; `check()` runs the rules of validation.ts, shows each problem next to its field and says which
// field to take the user to.
import type { ParseKeys } from 'i18next';
import { useCallback, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

import { PasswordInput } from './PasswordInput.tsx';
import { PasswordStrengthHint } from './PasswordStrengthHint.tsx';
import { confirmationProblem, newPasswordProblem } from './validation.ts';

import '../strings.ts';

type Problems = Partial<Record<'password' | 'confirmation', ParseKeys<'accounts'>>>;

export interface NewPassword {
  password: string;
  confirmation: string;
  problems: Problems;
  setPassword: (value: string) => void;
  setConfirmation: (value: string) => void;
  passwordRef: RefObject<HTMLInputElement | null>;
  confirmationRef: RefObject<HTMLInputElement | null>;
  /** Shows what is wrong; returns the first field with a problem (undefined when both are fine). */
  check: () => RefObject<HTMLInputElement | null> | undefined;
}

/** `onEdit` runs on every change of either field (e.g. to clear a failure shown for the form). */
export function useNewPassword(onEdit?: () => void): NewPassword {
  const [password, setPasswordValue] = useState('');
  const [confirmation, setConfirmationValue] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmationRef = useRef<HTMLInputElement>(null);

  const edit = useCallback(
    (field: keyof Problems, value: string) => {
      (field === 'password' ? setPasswordValue : setConfirmationValue)(value);
      setProblems((current) => ({ ...current, [field]: undefined }));
      onEdit?.();
    },
    [onEdit],
  );

  const check = () => {
    const found: Problems = {
      password: newPasswordProblem(password),
      confirmation: confirmationProblem(password, confirmation),
    };
    setProblems(found);
    return found.password ? passwordRef : found.confirmation ? confirmationRef : undefined;
  };

  return {
    password,
    confirmation,
    problems,
    setPassword: (value) => edit('password', value),
    setConfirmation: (value) => edit('confirmation', value),
    passwordRef,
    confirmationRef,
    check,
  };
}

export function NewPasswordFields({
  state,
  disabled,
  autoFocus,
  labels = { password: 'form_password_label', confirmation: 'form_confirm_password_label' },
}: {
  state: NewPassword;
  disabled: boolean;
  autoFocus?: boolean;
  labels?: Record<'password' | 'confirmation', ParseKeys<'accounts'>>;
}) {
  const { t } = useTranslation('accounts');
  const { problems } = state;
  return (
    <>
      <PasswordInput
        autoFocus={autoFocus}
        purpose="new"
        name="password"
        label={t(labels.password)}
        value={state.password}
        onChange={state.setPassword}
        disabled={disabled}
        inputRef={state.passwordRef}
        error={problems.password && t(problems.password)}
      />
      <PasswordStrengthHint password={state.password} />
      <PasswordInput
        purpose="new"
        name="confirmPassword"
        label={t(labels.confirmation)}
        value={state.confirmation}
        onChange={state.setConfirmation}
        disabled={disabled}
        inputRef={state.confirmationRef}
        error={problems.confirmation && t(problems.confirmation)}
      />
    </>
  );
}
