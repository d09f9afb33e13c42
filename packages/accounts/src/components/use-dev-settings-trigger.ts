// How the hidden developer settings open on the login page: 7 clicks (or taps) on the page background,
// as in Ente's apps, or the keyboard shortcut Alt+Shift+D (⌥⇧D on macOS) for those who do not use a
// pointer. Neither works on the hosted apps (see canChangeApiOrigin).
import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';

import { isPageBackground } from '@ente/shared/components/PageFrame.tsx';
import { canChangeApiOrigin } from '@ente/shared/origins.ts';

/** How many background clicks open the developer settings. */
export const devSettingsClickCount = 7;

export interface DevSettingsTrigger {
  open: boolean;
  /** Whether the settings were ever opened: the dialog is loaded and mounted only from then on. */
  wanted: boolean;
  close: () => void;
  /** To be given to the page's onClick. */
  onPageClick: (event: MouseEvent<HTMLElement>) => void;
}

export function useDevSettingsTrigger(): DevSettingsTrigger {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const clicks = useRef(0);

  const openIfAllowed = useCallback(() => {
    if (!canChangeApiOrigin(window.location.hostname)) return;
    setWanted(true);
    setOpen(true);
  }, []);

  const onPageClick = (event: MouseEvent<HTMLElement>) => {
    if (!isPageBackground(event.target)) return;
    clicks.current += 1;
    if (clicks.current < devSettingsClickCount) return;
    clicks.current = 0;
    openIfAllowed();
  };

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // `code` names the physical key, so the shortcut works whatever Alt makes of the letter.
      if (event.altKey && event.shiftKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyD') {
        event.preventDefault();
        openIfAllowed();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [openIfAllowed]);

  return { open, wanted, close: () => setOpen(false), onPageClick };
}
