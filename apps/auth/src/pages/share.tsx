// /share: the public page of a share link (services/share.ts, docs/protocol.md#share-links). No sign-in.
// It reads the link from the address bar in the browser only (the key is in the fragment, which never
// reaches a server), decrypts it in the crypto worker, and shows the current code and the next one,
// counting down, until the link expires. The page itself stays small: the share module (and with it
// the crypto worker and libsodium) loads only when the address carries a link's data, so a visit
// without one fetches neither.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { PageFrame } from '@ente/shared/components/PageFrame.tsx';
import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { log } from '@ente/shared/log.ts';

import type { ShareLinkErrorKind, SharePayload, ShareState } from '../services/share.ts';
import { createTicker } from '../services/ticker.ts';

export default function SharePage() {
  const { t } = useTranslation('codes');
  const translated = useCodesNamespace();
  const [link, setLink] = useState<LinkState>({ kind: 'opening' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    void openLink(window.location.href).then((state) => {
      if (current) setLink(state);
    });
    return () => {
      current = false;
    };
  }, [attempt]);
  // A link edited in the address bar changes only the fragment: the same document, read again.
  useEffect(() => {
    const onHashChange = () => {
      setLink({ kind: 'opening' });
      setAttempt((n) => n + 1);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  if (!translated) return <LoadingOverlay />;
  return (
    <PageFrame title={t('share.pageTitle')}>
      {link.kind === 'opening' ? (
        <Typography sx={{ color: 'text.secondary' }}>{t('share.opening')}</Typography>
      ) : link.kind === 'failed' ? (
        <Box role="alert">
          <Typography>{t(`share.${link.reason}`)}</Typography>
          {link.reason === 'failed' && (
            <Button
              variant="contained"
              sx={{ mt: 2 }}
              onClick={() => {
                setLink({ kind: 'opening' });
                setAttempt((n) => n + 1);
              }}
            >
              {t('share.retry')}
            </Button>
          )}
        </Box>
      ) : (
        <SharedCodes payload={link.payload} shareStateAt={link.shareStateAt} />
      )}
    </PageFrame>
  );
}

type LinkState =
  | { kind: 'opening' }
  | { kind: 'failed'; reason: ShareLinkErrorKind | 'failed' }
  | { kind: 'open'; payload: SharePayload; shareStateAt: (payload: SharePayload, nowMs: number) => ShareState };

/** Reads and decrypts the link in `href`; never throws. */
async function openLink(href: string): Promise<LinkState> {
  // Without data there is no link to open: say so without loading the share module or the worker.
  if (!new URL(href).searchParams.get('data')) return { kind: 'failed', reason: 'malformed' };
  try {
    const share = await import('../services/share.ts');
    try {
      return { kind: 'open', payload: await share.readShareLink(href), shareStateAt: share.shareStateAt };
    } catch (e) {
      if (e instanceof share.ShareLinkError) return { kind: 'failed', reason: e.kind };
      throw e;
    }
  } catch (e) {
    log.error('Could not open a share link', e);
    return { kind: 'failed', reason: 'failed' };
  }
}

/** Whether the `codes` translations are in (this page is not part of the vault, which loads them too). */
function useCodesNamespace(): boolean {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    // A failure leaves the keys showing rather than the overlay forever; it is logged by i18n.ts.
    void loadNamespace('codes')
      .catch(() => undefined)
      .then(() => setLoaded(true));
  }, []);
  return loaded;
}

/** One clock for the page, ticking at each whole second while the codes show. */
const ticker = createTicker();

function SharedCodes({
  payload,
  shareStateAt,
}: {
  payload: SharePayload;
  shareStateAt: (payload: SharePayload, nowMs: number) => ShareState;
}) {
  const { t } = useTranslation('codes');
  const [now, setNow] = useState(() => ticker.now());
  useEffect(() => ticker.subscribe(() => setNow(ticker.now())), []);
  const [copied, setCopied] = useState<string>();
  const state = shareStateAt(payload, now);

  if (state.kind === 'early') return <Typography role="alert">{t('share.early')}</Typography>;
  if (state.kind === 'expired') return <Typography role="alert">{t('share.expired')}</Typography>;

  const stepMs = payload.step * 1000;
  // The bar shows what is left a second from now and moves there linearly over that second.
  const fraction = Math.max(0, state.remainingMs - 1000) / stepMs;
  const seconds = Math.ceil(state.remainingMs / 1000);
  const copy = () => {
    navigator.clipboard.writeText(state.current).then(
      () => setCopied(state.current),
      (e: unknown) => log.warn('Could not copy the shared code', e),
    );
  };

  return (
    <Box>
      <Typography sx={{ color: 'text.secondary', mb: 3 }}>{t('share.intro')}</Typography>
      <Typography variant="subtitle2" component="h2">
        {t('share.current')}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 2, mb: 1 }}>
        <Typography
          component="p"
          data-testid="share-current"
          sx={{ fontFamily: 'monospace', fontSize: { xs: '2.25rem', sm: '3rem' }, letterSpacing: '0.05em' }}
        >
          {groupedCode(state.current)}
        </Typography>
        <Button variant="outlined" onClick={copy}>
          {t('share.copy')}
        </Button>
        <Box component="span" role="status">
          {copied === state.current ? t('share.copied') : null}
        </Box>
      </Box>
      <Box sx={{ height: 4, bgcolor: 'action.hover', borderRadius: 2, overflow: 'hidden', mb: 1 }}>
        <Box
          // A new code starts a new bar instead of animating back to full.
          key={state.current + String(Math.floor((now - payload.startTime) / stepMs))}
          sx={{
            height: '100%',
            width: `${String(fraction * 100)}%`,
            bgcolor: fraction > 0.4 ? 'primary.main' : 'warning.main',
            transition: 'width 1s linear',
            '@media (prefers-reduced-motion: reduce)': { transition: 'none' },
          }}
        />
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 3 }}>
        {t('share.changesIn', { seconds })}
      </Typography>
      <Typography variant="subtitle2" component="h2">
        {t('share.next')}
      </Typography>
      {state.next === undefined ? (
        <Typography sx={{ mb: 3 }}>{t('share.lastCode')}</Typography>
      ) : (
        <Typography component="p" sx={{ fontFamily: 'monospace', fontSize: '1.5rem', mb: 3 }}>
          {groupedCode(state.next)}
        </Typography>
      )}
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('share.expiresIn', { time: minutesAndSeconds(state.expiresInMs) })}
      </Typography>
    </Box>
  );
}

/** A code in groups of three for reading (`123 456`, Steam `ABC DE`). */
function groupedCode(code: string): string {
  return code.replace(/(.{3})(?=.)/g, '$1 ');
}

/** `m:ss` of a duration, rounded up to the second. */
function minutesAndSeconds(ms: number): string {
  const total = Math.ceil(ms / 1000);
  return `${String(Math.floor(total / 60))}:${String(total % 60).padStart(2, '0')}`;
}
