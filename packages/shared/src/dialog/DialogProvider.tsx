// The one place dialogs are shown from (DESIGN.md, "How a page is built"): a page calls
// `useDialog().showDialog(attributes)` and the provider renders it. Every call opens the dialog with
// the new description, also when one is already open (it is replaced).
//
// The dialog's code (MUI's Dialog, Modal, focus trap, transitions) is not part of the first load: it
// is fetched when the browser is first idle after the app started, so that a dialog, the failure
// dialog included, still opens at once later, also offline. Showing a dialog before that fetches it
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
import { log } from '../log.ts';
import type { AttributedDialogProps } from './AttributedDialog.tsx';
import { genericErrorDialogAttributes } from './error-dialog.ts';
import type { DialogAttributes } from './types.ts';
import { whenIdle } from '../app/when-idle.ts';

export interface DialogControl {
  /** Opens a dialog described by `attributes`, replacing any open one. */
  showDialog: (attributes: DialogAttributes) => void;
  /** Opens the generic failure dialog (spec §8). */
  showErrorDialog: () => void;
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
  const showErrorDialog = useCallback(() => showDialog(genericErrorDialogAttributes(t)), [showDialog, t]);
  const control = useMemo(() => ({ showDialog, showErrorDialog }), [showDialog, showErrorDialog]);

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
          onProceedError={(e) => {
            log.error('A dialog action failed', e);
            showErrorDialog();
          }}
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
