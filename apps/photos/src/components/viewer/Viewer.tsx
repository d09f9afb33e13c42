// The viewer: one file of the grid full screen, over the grid (a full-screen dialog, so focus stays in it and
// goes back to the grid's cell when it closes). Previous and next with the arrow keys, the on-screen buttons and
// a swipe; Escape closes; Delete asks the page to trash the file; zoom with the wheel, a pinch, a double click
// or + and − (0 fits again), and, zoomed, a drag pans; the info panel (I, or its button) shows the date, size,
// dimensions, place and camera. What is shown comes from the page as `source` (the media loader's object URL,
// or that it is loading, or failed): this file fetches and decrypts nothing.
// Loaded with import() when first opened (LazyViewer.tsx): none of it is in the gallery's first load.
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import FitIcon from '@mui/icons-material/FitScreen';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import LiveIcon from '@mui/icons-material/MotionPhotosAutoOutlined';
import ZoomInIcon from '@mui/icons-material/ZoomIn';
import ZoomOutIcon from '@mui/icons-material/ZoomOut';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { currentLocale } from '@ente/shared/i18n/i18n.ts';

import { FileType, type GalleryFile } from '../../library/types.ts';
import { infoRows, isVideo, noZoom, stepScale, zoomAbout, type FileDetails, type Zoom } from './viewer-model.ts';
import { ZoomStage } from './ZoomStage.tsx';

/** What the media loader has of the file shown. */
export type ViewerSource =
  | { status: 'loading' }
  | { status: 'error'; onRetry?: () => void }
  /** `url`: the image, or the video of a video; a live photo's video is `videoUrl`. */
  | { status: 'ready'; url: string; videoUrl?: string };

export interface ViewerProps {
  open: boolean;
  /** The files one moves through (the grid's order), and the one shown. */
  files: readonly GalleryFile[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  /** The file shown, as the media loader has it. */
  source: ViewerSource;
  /** Its thumbnail (an object URL the grid already has), shown while the file loads. */
  previewUrl?: string;
  /** What the media loader read of the file (EXIF), for the info panel. */
  details?: FileDetails;
  /** Delete and the trash button: the page asks to confirm, then trashes. Without it, neither is offered. */
  onTrash?: (file: GalleryFile) => void;
}

export function Viewer(props: ViewerProps) {
  const { open, files, index, onIndexChange, onClose, source, previewUrl, details, onTrash } = props;
  const { t } = useTranslation('photos');
  const id = useId();
  const [infoOpen, setInfoOpen] = useState(false);
  const [zoom, setZoom] = useState<Zoom>(noZoom);
  const [zoomedFile, setZoomedFile] = useState<number>();
  const paperRef = useRef<HTMLDivElement>(null);
  const file = files[index];
  // A button that went away with the file it led to (Next at the last file) leaves the
  // focus nowhere: it comes back to the viewer, whose keys keep working. Not when it is elsewhere (a confirm
  // dialog over the viewer).
  useLayoutEffect(() => {
    if (open && document.activeElement === document.body) paperRef.current?.focus();
  });
  // Each file starts fitted (React's "adjust state when a prop changes").
  if (file && file.id !== zoomedFile) {
    setZoomedFile(file.id);
    setZoom(noZoom);
  }
  if (!file) return null;

  const zoomable = source.status === 'ready' && !isVideo(file);
  const hasPrevious = index > 0;
  const hasNext = index < files.length - 1;
  const go = (to: number) => {
    if (to >= 0 && to < files.length) onIndexChange(to);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // A video's own controls take their keys (seeking with the arrows, space to play).
    if (event.target instanceof HTMLVideoElement || event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key;
    if (key === 'ArrowLeft') go(index - 1);
    else if (key === 'ArrowRight') go(index + 1);
    else if (key === 'Delete' && onTrash) onTrash(file);
    else if ((key === '+' || key === '=') && zoomable) setZoom((z) => zoomAbout(z, stepScale / 1.5, { x: 0, y: 0 }));
    else if (key === '-' && zoomable) setZoom((z) => zoomAbout(z, 1.5 / stepScale, { x: 0, y: 0 }));
    else if (key === '0') setZoom(noZoom);
    else if (key.toLowerCase() === 'i' && !event.shiftKey) setInfoOpen((shown) => !shown);
    else return;
    event.preventDefault();
  };

  const title = file.metadata.title;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullScreen
      aria-labelledby={`${id}-title`}
      onKeyDown={onKeyDown}
      slotProps={{ paper: { ref: paperRef, sx: { bgcolor: '#000', color: '#fff', backgroundImage: 'none' } } }}
    >
      <Box sx={{ display: 'flex', height: '100%', minHeight: 0 }}>
        <Box sx={{ position: 'relative', flex: 1, display: 'flex', flexDirection: 'column', minWidth: 0 }}>
          <Box
            component="header"
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 0.5,
              px: 1,
              py: 0.5,
              zIndex: 1,
              bgcolor: 'rgba(0, 0, 0, 0.6)',
            }}
          >
            <IconButton color="inherit" aria-label={t('viewer.close')} onClick={onClose}>
              <CloseIcon />
            </IconButton>
            <Box aria-live="polite" sx={{ flex: 1, minWidth: 0, px: 1 }}>
              <Typography id={`${id}-title`} component="h2" noWrap sx={{ fontWeight: 600 }}>
                {title}
              </Typography>
              <Typography variant="body2" sx={{ color: 'grey.400' }}>
                {t('viewer.position', { index: index + 1, total: files.length })}
              </Typography>
            </Box>
            {zoomable && (
              <>
                <IconButton
                  color="inherit"
                  aria-label={t('viewer.zoom_out')}
                  onClick={() => setZoom((z) => zoomAbout(z, 1.5 / stepScale, { x: 0, y: 0 }))}
                >
                  <ZoomOutIcon />
                </IconButton>
                <IconButton
                  color="inherit"
                  aria-label={t('viewer.zoom_in')}
                  onClick={() => setZoom((z) => zoomAbout(z, stepScale / 1.5, { x: 0, y: 0 }))}
                >
                  <ZoomInIcon />
                </IconButton>
                <IconButton color="inherit" aria-label={t('viewer.zoom_reset')} onClick={() => setZoom(noZoom)}>
                  <FitIcon />
                </IconButton>
              </>
            )}
            <IconButton
              color="inherit"
              aria-label={t('viewer.info')}
              aria-pressed={infoOpen}
              aria-controls={infoOpen ? `${id}-info` : undefined}
              onClick={() => setInfoOpen((shown) => !shown)}
            >
              <InfoIcon />
            </IconButton>
            {onTrash && (
              <IconButton color="inherit" aria-label={t('viewer.trash')} onClick={() => onTrash(file)}>
                <DeleteIcon />
              </IconButton>
            )}
          </Box>
          <Box sx={{ position: 'relative', flex: 1, minHeight: 0 }}>
            <Media
              key={file.id}
              file={file}
              source={source}
              previewUrl={previewUrl}
              zoom={zoom}
              onZoom={setZoom}
              onSwipe={(direction) => go(direction === 'next' ? index + 1 : index - 1)}
            />
            {hasPrevious && (
              <SideButton side="left" label={t('viewer.previous')} onClick={() => go(index - 1)}>
                <ChevronLeftIcon fontSize="large" />
              </SideButton>
            )}
            {hasNext && (
              <SideButton side="right" label={t('viewer.next')} onClick={() => go(index + 1)}>
                <ChevronRightIcon fontSize="large" />
              </SideButton>
            )}
          </Box>
        </Box>
        {infoOpen && <InfoPanel id={`${id}-info`} file={file} details={details} />}
      </Box>
    </Dialog>
  );
}

function SideButton({
  side,
  label,
  onClick,
  children,
}: {
  side: 'left' | 'right';
  label: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <IconButton
      aria-label={label}
      onClick={onClick}
      sx={{
        position: 'absolute',
        top: '50%',
        [side]: 8,
        transform: 'translateY(-50%)',
        color: '#fff',
        bgcolor: 'rgba(0, 0, 0, 0.45)',
        '&:hover': { bgcolor: 'rgba(0, 0, 0, 0.7)' },
        // Touch screens swipe; the buttons stay for keyboard and pointer users.
        '@media (hover: none)': { display: 'none' },
      }}
    >
      {children}
    </IconButton>
  );
}

function Media({
  file,
  source,
  previewUrl,
  zoom,
  onZoom,
  onSwipe,
}: {
  file: GalleryFile;
  source: ViewerSource;
  previewUrl: string | undefined;
  zoom: Zoom;
  onZoom: (update: (zoom: Zoom) => Zoom) => void;
  onSwipe: (direction: 'next' | 'previous') => void;
}) {
  const { t } = useTranslation('photos');
  const [playLive, setPlayLive] = useState(false);
  const fill = {
    position: 'absolute',
    inset: 0,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
  } as const;

  if (source.status !== 'ready') {
    return (
      <ZoomStage zoom={noZoom} zoomable={false} onZoom={onZoom} onSwipe={onSwipe}>
        {previewUrl && (
          <Box
            component="img"
            src={previewUrl}
            alt=""
            sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain', filter: 'blur(2px)', opacity: 0.6 }}
          />
        )}
        <Box sx={fill}>
          {source.status === 'loading' ? (
            <CircularProgress color="inherit" aria-label={t('viewer.loading')} />
          ) : (
            <Box role="alert" sx={{ textAlign: 'center', p: 2 }}>
              <Typography sx={{ mb: 2 }}>{t('viewer.failed')}</Typography>
              {source.onRetry && (
                <Button variant="contained" onClick={source.onRetry}>
                  {t('viewer.retry')}
                </Button>
              )}
            </Box>
          )}
        </Box>
      </ZoomStage>
    );
  }

  if (isVideo(file)) {
    return (
      <ZoomStage zoom={noZoom} zoomable={false} onZoom={onZoom} onSwipe={onSwipe}>
        <Box
          component="video"
          src={source.url}
          controls
          playsInline
          aria-label={file.metadata.title}
          sx={{ maxWidth: '100%', maxHeight: '100%' }}
        />
      </ZoomStage>
    );
  }

  const live = file.metadata.fileType === FileType.livePhoto && source.videoUrl !== undefined;
  return (
    <>
      <ZoomStage zoom={zoom} zoomable onZoom={onZoom} onSwipe={onSwipe}>
        {live && playLive ? (
          <Box
            component="video"
            src={source.videoUrl}
            autoPlay
            muted
            loop
            playsInline
            aria-label={file.metadata.title}
            sx={{ maxWidth: '100%', maxHeight: '100%' }}
          />
        ) : (
          <Box
            component="img"
            src={source.url}
            alt={file.metadata.title}
            draggable={false}
            sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain', userSelect: 'none' }}
          />
        )}
      </ZoomStage>
      {live && (
        <Button
          startIcon={<LiveIcon />}
          aria-pressed={playLive}
          onClick={() => setPlayLive((playing) => !playing)}
          sx={{ position: 'absolute', left: 12, bottom: 12, color: '#fff', bgcolor: 'rgba(0, 0, 0, 0.45)' }}
        >
          {t('grid.live_photo')}
        </Button>
      )}
    </>
  );
}

function InfoPanel({ id, file, details }: { id: string; file: GalleryFile; details: FileDetails | undefined }) {
  const { t } = useTranslation('photos');
  const rows = infoRows(file, details, currentLocale());
  return (
    <Box
      id={id}
      component="aside"
      aria-labelledby={`${id}-heading`}
      sx={{
        width: { xs: '100%', sm: 320 },
        position: { xs: 'absolute', sm: 'static' },
        inset: { xs: 'auto 0 0 0', sm: 'auto' },
        maxHeight: { xs: '50%', sm: 'none' },
        overflowY: 'auto',
        bgcolor: 'grey.900',
        p: 2,
        zIndex: 2,
      }}
    >
      <Typography id={`${id}-heading`} variant="h6" component="h3" sx={{ mb: 1 }}>
        {t('viewer.info')}
      </Typography>
      <Box component="dl" sx={{ m: 0 }}>
        {rows.map((row) => (
          <Box key={row.key} sx={{ mb: 1.5 }}>
            <Typography component="dt" variant="body2" sx={{ color: 'grey.400' }}>
              {t(`viewer.${row.key}`)}
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {row.value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
