// The cast screen's page until pairing exists: a heading and a line of text. A screen needs no account, so
// nothing here reads the signed-in user.
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { PageFrame } from '@ente/shared/components/PageFrame.tsx';

export default function Page() {
  const { t } = useTranslation('common');
  return (
    <PageFrame title={t('title_cast')}>
      <Typography variant="body1" sx={{ color: 'text.secondary' }}>
        {t('cast_pairing_coming_soon')}
      </Typography>
    </PageFrame>
  );
}
