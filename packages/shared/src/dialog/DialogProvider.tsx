// The one place dialogs are shown from (docs/product.md#dialogs): a page calls
// `useDialog().showDialog(attributes)` and the provider renders it. Every call opens the dialog with
// the new description, also when one is already open (it is replaced). `onGenericError(e)` is what
// every caller does with a failure it has nothing more specific to say about: log it, and show the
// generic failure dialog with the catalogue's message for it (docs/product.md#errors).
//
// The dialog's code (MUI's Dialog, Modal, focus trap, transitions) is not part of the first load: it
// is fetched when the browser is idle after the visitor's first interaction (app/when-idle.ts), so
// that a dialog, the failure dialog included, still opens at once later, also offline. Showing a dialog before that fetches it
// at once. A failed fetch is logged and retried on the next dialog.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';

import { whenIdle } from '../app/when-idle.ts';
import type { ErrorId } from '../errors.ts';
import { log } from '../log.ts';
import type { AttributedDialogProps } from './AttributedDialog.tsx';
import { genericErrorDialogAttributes } from './error-dialog.ts';
import type { DialogAttributes } from './types.ts';

export interface DialogControl {
  /** Opens a dialog described by `attributes`, replacing any open one. */
  showDialog: (attributes: DialogAttributes) => void;
  /** Logs `e` and shows the generic failure dialog with the message of its error identifier. */
  onGenericError: (e: unknown, options?: GenericErrorOptions) => void;
}

export interface GenericErrorOptions {
  /** What failed, for the log. */
  message?: string;
  /** Runs when the dialog is closed; the dialog can then be closed only by its button. */
  onClose?: () => void;
}

export function DialogProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const [state, setState] = useState<DialogState>({ id: 0, open: false });
  const [AttributedDialog, setAttributedDialog] = useState<ComponentType<AttributedDialogProps>>();

  const ensureDialogCode = useCallback(() => {
    loadAttributedDialog().then(
      (component) => setAttributedDialog(() => component),
      (e: unknown) => log.warn('Could not load the dialog code', e),
    );
  }, []);
  useEffect(() => whenIdle(ensureDialogCode), [ensureDialogCode]);

  const showDialog = useCallback(
    (attributes: DialogAttributes) => {
      ensureDialogCode();
      setState((previous) => ({ id: previous.id + 1, open: true, attributes }));
    },
    [ensureDialogCode],
  );
  const onGenericError = useCallback(
    (e: unknown, { message = 'Unexpected failure', onClose }: GenericErrorOptions = {}) => {
      log.error(message, e);
      void identifyError(e).then((id) => showDialog(genericErrorDialogAttributes(t, id, onClose)));
    },
    [showDialog, t],
  );
  const control = useMemo(() => ({ showDialog, onGenericError }), [showDialog, onGenericError]);

  // A closing dialog only closes itself: an action that opened the next dialog keeps that one open.
  const closeDialog = (id: number) =>
    setState((current) => (current.id === id ? { ...current, open: false } : current));

  const { id, open, attributes } = state;
  return (
    <DialogContext value={control}>
      {children}
      {attributes && AttributedDialog && (
        <AttributedDialog
          // A new description is a new dialog: nothing (such as a loading button) carries over.
          key={id}
          open={open}
          attributes={attributes}
          onClose={() => closeDialog(id)}
          onProceedError={(e) => onGenericError(e, { message: 'A dialog action failed' })}
        />
      )}
    </DialogContext>
  );
}

/** Opens dialogs; needs a DialogProvider above (the app shell has one). */
export function useDialog(): DialogControl {
  const control = useContext(DialogContext);
  if (!control) throw new Error('useDialog needs a DialogProvider above it');
  return control;
}

interface DialogState {
  id: number;
  open: boolean;
  attributes?: DialogAttributes;
}

const DialogContext = createContext<DialogControl | undefined>(undefined);

/**
 * The catalogue identifier of a failure. errors.ts is loaded on demand: it knows the HTTP client's
 * errors, which are not part of the first load. If it cannot be loaded (offline before it was ever
 * needed), the dialog says `unknown`: less specific, but still the generic failure dialog.
 */
async function identifyError(e: unknown): Promise<ErrorId> {
  try {
    return (await import('../errors.ts')).errorIdOf(e);
  } catch (loadError) {
    log.warn('Could not load the error catalogue', loadError);
    return 'unknown';
  }
}

let dialogCode: Promise<ComponentType<AttributedDialogProps>> | undefined;

/** Fetches the dialog's code once (again after a failure). */
function loadAttributedDialog(): Promise<ComponentType<AttributedDialogProps>> {
  dialogCode ??= import('./AttributedDialog.tsx').then(
    (module) => module.AttributedDialog,
    (e: unknown) => {
      dialogCode = undefined;
      throw e;
    },
  );
  return dialogCode;
}
