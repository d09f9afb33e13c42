// The slideshow: the photos of an album or a selection, one after the other over the whole screen (the page asked
// for the Fullscreen API when the person started it; this is a full-window dialog either way). Play and pause
// (Space), previous and next (the arrows), the time per photo, shuffle; Escape, or leaving full screen, ends it.
// Each slide is loaded and decoded before it replaces the one shown, which stays until then (no blank frame); the
// new one fades in, at once where the person prefers reduced motion. Videos are not shown (docs/decisions.md); a
// photo that does not load is skipped. The screen is kept awake while it plays, where the Wake Lock API exists.
// Loaded with import() when first started (LazySlideshow.tsx): none of it is in a page's first load.
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CloseIcon from '@mui/icons-material/Close';
import PauseIcon from '@mui/icons-material/Pause';
import PlayIcon from '@mui/icons-material/PlayArrow';
import ShuffleIcon from '@mui/icons-material/Shuffle';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import { keyframes } from '@mui/material/styles';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { GalleryFile } from '../../library/types.ts';
import { SlideLoader, type LoadSlide } from './slide-loader.ts';
import {
  DEFAULT_INTERVAL,
  next,
  previous,
  shownSlide,
  skipFailed,
  SLIDESHOW_INTERVALS,
  slideshowFiles,
  startSequence,
  upcomingSlide,
  withShuffle,
  type Random,
  type Sequence,
} from './slideshow-sequence.ts';
import { useWakeLock } from './use-wake-lock.ts';

export interface SlideshowProps {
  /** The album's or the selection's files (videos are left out here). */
  files: readonly GalleryFile[];
  loadSlide: LoadSlide;
  onClose: () => void;
  /** For tests: the shuffle's randomness. */
  random?: Random;
}

/** How long the controls stay after the pointer last moved, while playing. */
const CONTROLS_IDLE_MS = 3000;

const fadeIn = keyframes`
  from { opacity: 0; }
  to { opacity: 1; }
`;

interface Layer {
  key: number;
  slide: number;
  url: string;
}

export function Slideshow({ files, loadSlide, onClose, random = Math.random }: SlideshowProps) {
  const { t } = useTranslation('photos');
  const id = useId();
  const slides = useMemo(() => slideshowFiles(files), [files]);
  const [loader] = useState(() => new SlideLoader(slides, loadSlide));
  const [sequence, setSequence] = useState<Sequence>(() => startSequence(slides.length, { random }));
  const [playing, setPlaying] = useState(true);
  const [seconds, setSeconds] = useState<number>(DEFAULT_INTERVAL);
  const [layers, setLayers] = useState<Layer[]>([]);
  const [failed, setFailed] = useState<ReadonlySet<number>>(new Set());
  const [controlsShown, setControlsShown] = useState(true);
  const layerKey = useRef(0);
  const nothingToShow = slides.length === 0 || failed.size >= slides.length;
  const top = layers.at(-1);
  const shown = shownSlide(sequence);
  const onScreen = top?.slide === shown;

  useWakeLock(playing && !nothingToShow);
  useEffect(() => () => loader.dispose(), [loader]);
  useLeaveWithFullScreen(onClose);

  // The slide shown replaces the one on screen once decoded; the upcoming one loads meanwhile.
  useEffect(() => {
    if (nothingToShow) return;
    let live = true;
    const fail = (slide: number) => {
      if (!live || failed.has(slide)) return;
      const more = new Set(failed).add(slide);
      setFailed(more);
      setSequence((current) => {
        const skipped = skipFailed(current, more, random);
        if (!skipped) return current;
        return shownSlide(current) === slide ? next(skipped, random) : skipped;
      });
    };
    loader.load(shown).then(
      ({ url }) => {
        if (!live) return;
        setLayers((current) =>
          current.at(-1)?.slide === shown
            ? current
            : [...current.slice(-1), { key: ++layerKey.current, slide: shown, url }],
        );
      },
      () => fail(shown),
    );
    const upcoming = upcomingSlide(sequence);
    loader.load(upcoming).catch(() => fail(upcoming));
    return () => {
      live = false;
    };
  }, [sequence, shown, loader, nothingToShow, failed, random]);

  useEffect(() => {
    loader.keep(new Set([shown, upcomingSlide(sequence), ...layers.map((layer) => layer.slide)]));
  }, [loader, sequence, shown, layers]);

  // The next slide is due once this one has been on screen for the chosen time.
  useEffect(() => {
    if (!playing || !onScreen) return;
    const timer = setTimeout(() => setSequence((current) => next(current, random)), seconds * 1000);
    return () => clearTimeout(timer);
  }, [playing, onScreen, seconds, sequence, random]);

  // The controls step aside while it plays and the pointer rests; any move or key brings them back.
  useEffect(() => {
    if (!playing || !controlsShown) return;
    const timer = setTimeout(() => setControlsShown(false), CONTROLS_IDLE_MS);
    return () => clearTimeout(timer);
  }, [playing, controlsShown]);

  const go = (forward: boolean) => setSequence((current) => (forward ? next : previous)(current, random));

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    setControlsShown(true);
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const onControl = event.target instanceof HTMLElement && event.target.closest('button') !== null;
    if (event.key === 'ArrowRight') go(true);
    else if (event.key === 'ArrowLeft') go(false);
    // Space on a button presses that button.
    else if ((event.key === ' ' && !onControl) || event.key.toLowerCase() === 'k') setPlaying((on) => !on);
    else return;
    event.preventDefault();
  };

  const file = top ? slides[top.slide] : undefined;
  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen
      aria-labelledby={`${id}-title`}
      onKeyDown={onKeyDown}
      onPointerMove={() => setControlsShown(true)}
      slotProps={{
        paper: {
          sx: {
            bgcolor: '#000',
            color: '#fff',
            backgroundImage: 'none',
            cursor: controlsShown ? 'auto' : 'none',
          },
        },
      }}
    >
      <Box sx={{ position: 'relative', flex: 1, minHeight: 0 }}>
        {layers.map((layer) => (
          <Box
            key={layer.key}
            component="img"
            src={layer.url}
            alt={layer === top ? (slides[layer.slide]?.metadata.title ?? '') : ''}
            aria-hidden={layer === top ? undefined : true}
            sx={{
              position: 'absolute',
              inset: 0,
              width: '100%',
              height: '100%',
              objectFit: 'contain',
              // Opaque, so that the slide fading in hides the one under it entirely once shown.
              bgcolor: '#000',
              animation: `${fadeIn} 800ms ease-in-out`,
              '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
            }}
          />
        ))}
        {!top && !nothingToShow && (
          <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
            <CircularProgress color="inherit" aria-label={t('slideshow.loading')} />
          </Box>
        )}
        {nothingToShow && (
          <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', p: 3 }}>
            <Typography role="alert">{t('slideshow.none')}</Typography>
          </Box>
        )}
      </Box>
      <Box
        role="toolbar"
        aria-label={t('slideshow.controls')}
        onFocus={() => setControlsShown(true)}
        sx={{
          position: 'absolute',
          insetInline: 0,
          bottom: 0,
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 1,
          p: 1.5,
          bgcolor: 'rgba(0, 0, 0, 0.65)',
          opacity: controlsShown ? 1 : 0,
          transition: 'opacity 300ms',
          '&:focus-within': { opacity: 1 },
          '@media (prefers-reduced-motion: reduce)': { transition: 'none' },
        }}
      >
        <Box sx={{ flex: '1 1 100%', textAlign: 'center', minWidth: 0 }}>
          <Typography id={`${id}-title`} component="h2" noWrap sx={{ fontWeight: 600 }}>
            {file?.metadata.title ?? t('slideshow.label')}
          </Typography>
          {!nothingToShow && (
            <Typography variant="body2" sx={{ color: 'grey.400' }}>
              {t('slideshow.position', { index: sequence.now.position + 1, total: slides.length })}
            </Typography>
          )}
        </Box>
        <Control label={t('slideshow.previous')} icon={<ChevronLeftIcon />} onClick={() => go(false)} />
        <Control
          label={t(playing ? 'slideshow.pause' : 'slideshow.play')}
          icon={playing ? <PauseIcon /> : <PlayIcon />}
          onClick={() => setPlaying((on) => !on)}
        />
        <Control label={t('slideshow.next')} icon={<ChevronRightIcon />} onClick={() => go(true)} />
        <Control
          label={t('slideshow.shuffle')}
          icon={<ShuffleIcon />}
          pressed={sequence.shuffle}
          onClick={() => setSequence((current) => withShuffle(current, !current.shuffle, random))}
        />
        <ToggleButtonGroup
          exclusive
          size="small"
          value={seconds}
          aria-label={t('slideshow.interval')}
          onChange={(_event, value: number | null) => {
            if (value !== null) setSeconds(value);
          }}
          sx={{ '& .MuiToggleButton-root': { color: 'grey.300', borderColor: 'grey.700' } }}
        >
          {SLIDESHOW_INTERVALS.map((each) => (
            <ToggleButton
              key={each}
              value={each}
              sx={{ '&.Mui-selected': { color: '#fff', bgcolor: 'rgba(255, 255, 255, 0.24)' } }}
            >
              {t('slideshow.seconds', { count: each })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Control label={t('slideshow.close')} icon={<CloseIcon />} onClick={onClose} />
      </Box>
    </Dialog>
  );
}

/** A button of the controls: an icon named by `label`; `pressed` makes it a toggle (shown lit when on). */
function Control(props: { label: string; icon: ReactNode; onClick: () => void; pressed?: boolean }) {
  const { label, icon, onClick, pressed } = props;
  return (
    <IconButton
      color="inherit"
      aria-label={label}
      aria-pressed={pressed}
      onClick={onClick}
      sx={{ bgcolor: pressed ? 'rgba(255, 255, 255, 0.2)' : undefined }}
    >
      {icon}
    </IconButton>
  );
}

/** Leaving full screen (Escape there is the browser's, not a key the page gets) ends the show; ending it leaves. */
function useLeaveWithFullScreen(onClose: () => void) {
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  }, [onClose]);
  useEffect(() => {
    if (typeof document === 'undefined') return;
    const onChange = () => {
      if (!document.fullscreenElement) close.current();
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
      if (document.fullscreenElement) document.exitFullscreen().catch(() => undefined);
    };
  }, []);
}
