// The paired screen: the album full-screen on black, each photo for the slide interval (slide-timing.ts) with a
// gentle fade from the one before (the first shows at once), the next one loaded before it replaces the current
// one (slideshow-loop.ts), no cursor. Ends (onEnd) on a 401 or after repeated failures, which sends the page back
// to pairing. Loaded with import() once a screen pairs (slideshow-chunk.ts), so not in the page's first load.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { CastPayload } from '@ente/protocol';

import { CastAlbum } from './album.ts';
import { endOn401, loadSlide, type Slide } from './slide-loader.ts';
import { FADE_MS, slideIntervalMs } from './slide-timing.ts';
import { CastEndedError, runSlideshow } from './slideshow-loop.ts';

const MAX_FAILURES = 5;

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });
}

/** A slide on screen; `fade`: it fades in over the one before (the first has none before it). */
type Shown = { slide: Slide; serial: number; fade: boolean };

export function Slideshow({ payload, onEnd }: { payload: CastPayload; onEnd: (reason: 'revoked' | 'failed') => void }) {
  const { t } = useTranslation('cast');
  // The slide on top fades in over the one before it, which stays underneath until the next arrives.
  const [layers, setLayers] = useState<Shown[]>([]);
  const [empty, setEmpty] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const album = new CastAlbum(payload);
    let serial = 0;
    runSlideshow<Slide>({
      refresh: async () => {
        try {
          await album.refresh(controller.signal);
        } catch (error) {
          throw endOn401(error);
        }
      },
      ids: () => album.ids(),
      load: (id, signal) => loadSlide(album, payload.castToken, id, signal),
      show: (slide) => {
        setEmpty(slide === null);
        if (slide === null) return;
        serial += 1;
        const layerSerial = serial;
        setLayers((before) => {
          const dropped = before.slice(0, Math.max(0, before.length - 1));
          for (const layer of dropped) URL.revokeObjectURL(layer.slide.url);
          return [...before.slice(-1), { slide, serial: layerSerial, fade: before.length > 0 }];
        });
      },
      wait,
      random: Math.random,
      intervalMs: slideIntervalMs(window.location.search),
      maxFailures: MAX_FAILURES,
      signal: controller.signal,
    }).catch((error: unknown) => {
      if (controller.signal.aborted) return;
      onEnd(error instanceof CastEndedError ? error.reason : 'failed');
    });
    return () => {
      controller.abort();
      setLayers((before) => {
        for (const layer of before) URL.revokeObjectURL(layer.slide.url);
        return [];
      });
    };
  }, [payload, onEnd]);

  return (
    <Box
      data-testid="cast-slideshow"
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: 1300,
        bgcolor: '#000',
        color: '#fff',
        cursor: 'none',
        display: 'grid',
        placeItems: 'center',
        '@keyframes castFadeIn': { from: { opacity: 0 }, to: { opacity: 1 } },
      }}
    >
      {layers.map(({ slide, serial, fade }, index) => {
        const top = index === layers.length - 1;
        // Each layer is opaque, so that the one fading in hides the one under it entirely once shown.
        return (
          <Box
            key={serial}
            aria-hidden={top ? undefined : true}
            sx={{
              position: 'absolute',
              inset: 0,
              bgcolor: '#000',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              animation: fade ? `castFadeIn ${String(FADE_MS)}ms ease-in-out` : 'none',
              '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
            }}
          >
            <Box
              component="img"
              src={slide.url}
              alt={top ? t('slide_alt') : ''}
              data-file-id={slide.id}
              data-slide-source={slide.source}
              sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
            />
          </Box>
        );
      })}
      {layers.length === 0 && (
        <Typography variant="h5" component="p" role="status" sx={{ px: 4, textAlign: 'center' }}>
          {empty ? t('empty_album') : t('loading_album')}
        </Typography>
      )}
    </Box>
  );
}
