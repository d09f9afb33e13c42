// The cast screen's page until pairing exists: a heading, a line of text, and who is signed in when someone
// is (the family's one login reaches every app).
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { useLoggedIn } from '@ente/shared/app/use-logged-in.ts';
import { PageFrame } from '@ente/shared/components/PageFrame.tsx';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

export default function Page() {
  const { t } = useTranslation('common');
  // Read when rendering signed in, which the prerender never is (useLoggedIn says no there).
  const email = useLoggedIn() ? savedUser()?.email : undefined;
  return (
    <PageFrame title={t('title_cast')}>
      <Typography variant="body1" sx={{ color: 'text.secondary' }}>
        {t('cast_pairing_coming_soon')}
      </Typography>
      {email && (
        <Typography variant="body2" sx={{ mt: 2, overflowWrap: 'anywhere' }}>
          {t('landing_signed_in_as', { email })}
        </Typography>
      )}
    </PageFrame>
  );
}
