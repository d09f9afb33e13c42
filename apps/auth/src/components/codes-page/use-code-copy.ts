// Copying a code: the current or the next value to the clipboard, a toast, the hidden code revealed for
// a few seconds, and the use recorded for the "recently used" order.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { log } from '@ente/shared/log.ts';

import type { DisplayOptions } from '../../services/display-options.ts';
import { codesAt } from '../../services/otp.ts';
import type { Ticker } from '../../services/ticker.ts';
import type { Code, CodeData } from '../../services/types.ts';

/** How long a hidden code stays visible once revealed. */
const revealDuration = 5000;

export interface CodeCopyOptions {
  ticker: Ticker;
  options: DisplayOptions;
  editable: boolean;
  write: (code: Code, change: (data: CodeData) => CodeData) => Promise<void>;
  toast: (text: string) => void;
}

export function useCodeCopy({ ticker, options, editable, write, toast }: CodeCopyOptions): {
  copy: (code: Code, which: 'current' | 'next') => void;
  /** The hidden code shown for now, if any. */
  revealedID: string | undefined;
} {
  const { t } = useTranslation('codes');
  const [revealedID, setRevealedID] = useState<string>();
  useEffect(() => {
    if (revealedID === undefined) return;
    const timer = setTimeout(() => setRevealedID(undefined), revealDuration);
    return () => clearTimeout(timer);
  }, [revealedID]);

  const usage = useRef(new Set<string>());
  const copy = useCallback(
    (code: Code, which: 'current' | 'next') => {
      let value: string;
      try {
        value = codesAt(code, ticker.now())[which];
      } catch (e) {
        log.warn('Could not generate a code', e);
        return;
      }
      if (options.hideCodes) setRevealedID(code.id);
      navigator.clipboard.writeText(value).then(
        () => {
          toast(which === 'current' ? t('list.copied') : t('list.copiedNext'));
          // Usage feeds the "recently used" order (and other apps' counters). As in mobile, it is written
          // only while the list is in that order: a write per copy would sync every copy to every device.
          if (!editable || options.sort !== 'recent' || usage.current.has(code.id)) return;
          usage.current.add(code.id);
          void write(code, (data) => ({
            ...data,
            display: { ...data.display, lastUsedAt: Date.now() * 1000, tapCount: data.display.tapCount + 1 },
          })).finally(() => usage.current.delete(code.id));
        },
        (e: unknown) => {
          log.warn('Could not copy', e);
          toast(t('list.copyFailed'));
        },
      );
    },
    [ticker, options.hideCodes, options.sort, toast, t, editable, write],
  );
  return { copy, revealedID };
}
