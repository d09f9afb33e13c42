// The cast screen: a pairing code until a photos client pairs with it, then that album as a slideshow; back to a
// code, saying why, when the cast ends. It needs no account (screen/); the family's login still reaches this
// app, so who is signed in is said when someone is.
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useLoggedIn } from '@ente/shared/app/use-logged-in.ts';
import { PageFrame } from '@ente/shared/components/PageFrame.tsx';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { PairingScreen } from '../screen/PairingScreen.tsx';
import { loadSlideshow } from '../screen/slideshow-chunk.ts';
import type { Slideshow as SlideshowComponent } from '../screen/Slideshow.tsx';
import { useCastTranslations } from '../screen/use-cast-translations.ts';
import { usePairing } from '../screen/use-pairing.ts';

export default function Page() {
  const { t } = useTranslation('common');
  // Read when rendering signed in, which the prerender never is (useLoggedIn says no there).
  const email = useLoggedIn() ? savedUser()?.email : undefined;
  const ready = useCastTranslations();
  const [state, dispatch] = usePairing();
  const onEnd = useCallback((reason: 'revoked' | 'failed') => dispatch({ type: reason }), [dispatch]);
  // The slideshow's code, fetched once a screen pairs (a failed fetch ends the cast as failed: back to a code).
  const [Slideshow, setSlideshow] = useState<typeof SlideshowComponent>();
  const paired = state.phase === 'paired';
  useEffect(() => {
    if (!paired || Slideshow) return;
    let cancelled = false;
    loadSlideshow().then(
      (chunk) => !cancelled && setSlideshow(() => chunk.Slideshow),
      () => !cancelled && onEnd('failed'),
    );
    return () => {
      cancelled = true;
    };
  }, [paired, Slideshow, onEnd]);

  return (
    <PageFrame title={t('title_cast')}>
      {ready && state.phase !== 'paired' && (
        <PairingScreen code={state.phase === 'waiting' ? state.code : undefined} notice={state.notice} />
      )}
      {ready && state.phase === 'paired' && Slideshow && <Slideshow payload={state.payload} onEnd={onEnd} />}
      {email && (
        <Typography variant="body2" sx={{ mt: 2, overflowWrap: 'anywhere', textAlign: 'center' }}>
          {t('landing_signed_in_as', { email })}
        </Typography>
      )}
    </PageFrame>
  );
}
