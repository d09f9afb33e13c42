// The strength hint under a new password (weak / moderate / strong, see password-strength.ts). Its line
// is always there, so the form does not move when the estimate arrives. The estimator loads on the
// first character typed and runs off the UI thread; until an estimate for the current password is
// there (or if it cannot be loaded) the line stays empty. The text
// is a polite live region: it changes only when the level does, so screen readers hear each new level
// once, not every keystroke.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { log } from '@ente/shared/log.ts';

import { loadStrengthEstimator, type PasswordStrength, type StrengthEstimator } from './password-strength.ts';

import '../strings.ts';

export function PasswordStrengthHint({ password }: { password: string }) {
  const { t } = useTranslation('accounts');
  const [estimate, setEstimate] = useState<StrengthEstimator>();
  const wanted = password.length > 0;

  useEffect(() => {
    if (!wanted || estimate) return;
    let current = true;
    loadStrengthEstimator().then(
      (estimator) => current && setEstimate(() => estimator),
      (e: unknown) => log.warn('Could not load the password strength estimator', e),
    );
    return () => {
      current = false;
    };
  }, [wanted, estimate]);

  // Each estimate is asked for off the UI thread; an answer for a password that is no longer typed is dropped.
  const [estimated, setEstimated] = useState<{ password: string; strength: PasswordStrength }>();
  useEffect(() => {
    if (!wanted || !estimate) return;
    let current = true;
    estimate(password).then(
      (strength) => current && setEstimated({ password, strength }),
      (e: unknown) => log.warn('Could not estimate the password strength', e),
    );
    return () => {
      current = false;
    };
  }, [wanted, estimate, password]);

  const strength = wanted && estimated?.password === password ? estimated.strength : undefined;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minHeight: 24, mb: 1 }}>
      <Box aria-hidden sx={{ display: 'flex', gap: 0.5, visibility: strength ? 'visible' : 'hidden' }}>
        {[1, 2, 3].map((segment) => (
          <Box
            key={segment}
            sx={{
              width: 24,
              height: 4,
              borderRadius: 2,
              bgcolor: strength && segment <= filledSegments[strength] ? colours[strength] : 'divider',
            }}
          />
        ))}
      </Box>
      <Typography variant="body2" aria-live="polite" sx={{ color: 'text.secondary' }}>
        {strength && t('form_password_strength', { strength: t(`form_strength_${strength}`) })}
      </Typography>
    </Box>
  );
}

const filledSegments: Record<PasswordStrength, number> = { weak: 1, moderate: 2, strong: 3 };
const colours: Record<PasswordStrength, string> = {
  weak: 'error.main',
  moderate: 'text.secondary',
  strong: 'primary.main',
};
