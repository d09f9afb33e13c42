// The short confirmation at the bottom of the page ("Copied") and the screen-reader announcements of
// the list (a code moved). Both regions are always in the page and only their text changes, so that
// screen readers announce each message.
import Box from '@mui/material/Box';
import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a toast stays on screen. */
export const toastDuration = 2000;

export interface ToastControl {
  /** Shows `message` for two seconds (a new message replaces the one on screen). */
  toast: (message: string) => void;
  /** Says `message` to screen readers only. */
  announce: (message: string) => void;
}

export function useToast(): ToastControl & { message: string | undefined; announcement: string } {
  const [message, setMessage] = useState<{ text: string; id: number }>();
  const [announcement, setAnnouncement] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const toast = useCallback((text: string) => {
    clearTimeout(timer.current);
    setMessage((previous) => ({ text, id: (previous?.id ?? 0) + 1 }));
    timer.current = setTimeout(() => setMessage(undefined), toastDuration);
  }, []);
  // The same text twice in a row must still be announced: alternate a no-break space at its end.
  const announce = useCallback(
    (text: string) => setAnnouncement((previous) => (previous === text ? `${text}\u00a0` : text)),
    [],
  );
  return { toast, announce, message: message?.text, announcement };
}

export function Toast({ message, announcement }: { message: string | undefined; announcement: string }) {
  return (
    <>
      <Box
        role="status"
        sx={{
          position: 'fixed',
          left: '50%',
          bottom: 24,
          transform: 'translateX(-50%)',
          zIndex: (theme) => theme.zIndex.snackbar,
          pointerEvents: 'none',
          ...(message
            ? {
                px: 2,
                py: 1,
                borderRadius: 1,
                typography: 'body2',
                fontWeight: 500,
                bgcolor: 'text.primary',
                color: 'background.paper',
                boxShadow: 3,
              }
            : {}),
        }}
      >
        {message}
      </Box>
      <Box role="status" sx={visuallyHidden}>
        {announcement}
      </Box>
    </>
  );
}

/** Present for screen readers, invisible on screen. */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  p: 0,
  m: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;
