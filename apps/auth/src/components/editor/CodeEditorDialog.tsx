// The dialog that adds a code or edits one. Adding has three ways in, all ending in the same form for
// review: the fields typed by hand; an `otpauth://` link pasted; a QR code in an image (chosen, pasted
// or dropped here, or dropped on the page: use-image-drop.ts), read off the UI thread (qr-decode.ts).
// When an image or link holds several codes (a Google Authenticator export, possibly over several
// images), they are shown as a checklist to add together. A duplicate of a code already in the vault is
// flagged before saving. Editing shows every field, tags, note and pin, and asks before the secret
// changes. The page loads this module with import() only when the dialog first opens.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type SubmitEvent,
} from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';

import { codeData } from '../../services/code-edits.ts';
import { CodeTextError, readCodeText, type CodeText } from '../../services/code-import.ts';
import { allTags, duplicateOf } from '../../services/find.ts';
import { asQRReadError, decodeQRImage } from '../../services/qr-decode.ts';
import type { Code, CodeData } from '../../services/types.ts';
import {
  formData,
  formErrors,
  formFieldOrder,
  formValues,
  newCodeData,
  type CodeFormErrors,
  type CodeFormField,
  type CodeFormValues,
} from './code-form.ts';
import { CodeFields } from './CodeFields.tsx';
import { codeName, failureMessage, keyMessage } from './editor-text.ts';
import {
  emptyImportList,
  importEntries,
  isChosen,
  withAdded,
  withChoice,
  withResults,
  type ImportListState,
} from './import-list.ts';
import { ImportList } from './ImportList.tsx';
import { firstFile } from './use-image-drop.ts';

export interface CodeEditorDialogProps {
  open: boolean;
  /** `image`: an image pasted or dropped on the page (use-image-drop.ts), read when the dialog opens. */
  target: { kind: 'add'; initial?: Partial<CodeData>; image?: Blob } | { kind: 'edit'; code: Code };
  /** For duplicate detection and tag suggestions. */
  codes: Code[];
  onClose: () => void;
  /** Saves; rejects with the error to show. The dialog closes itself (onClose) once everything is saved. */
  onSave: (data: CodeData, original?: Code) => Promise<void>;
}

/**
 * Every opening starts afresh, and so does a different target while open. While closing, the dialog
 * keeps showing what it showed (the page may already have dropped its target).
 */
export function CodeEditorDialog(props: CodeEditorDialogProps): React.ReactNode {
  const [shown, setShown] = useState({ target: props.target, session: 0 });
  const [wasOpen, setWasOpen] = useState(props.open);
  if (props.open !== wasOpen) {
    setWasOpen(props.open);
    if (props.open) setShown({ target: props.target, session: shown.session + 1 });
  } else if (props.open && !sameTarget(props.target, shown.target)) {
    setShown({ target: props.target, session: shown.session + 1 });
  }
  return <EditorDialog key={shown.session} {...props} target={shown.target} />;
}

export default CodeEditorDialog;

/** A message with its translation key and values. */
interface Message {
  key: string;
  values?: Record<string, string>;
}

/** Where the focus goes next (count: a new request for the same place). */
interface FocusRequest {
  target: CodeFormField | 'issuer' | 'list' | 'link';
  count: number;
}

type SourceState =
  { status: 'idle' } | { status: 'reading' } | { status: 'filled' } | { status: 'error'; message: Message };

function EditorDialog({ open, target, codes, onClose, onSave }: CodeEditorDialogProps) {
  const { t, i18n } = useTranslation('codes');
  const { showDialog } = useDialog();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const id = useId();
  const editing = target.kind === 'edit' ? target.code : undefined;
  const adding = target.kind === 'add';

  const [base, setBase] = useState<CodeData>(() =>
    target.kind === 'edit' ? codeData(target.code) : newCodeData(target.initial),
  );
  const [values, setValues] = useState<CodeFormValues>(() => formValues(base));
  const [touched, setTouched] = useState<ReadonlySet<CodeFormField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [link, setLink] = useState('');
  const [linkError, setLinkError] = useState<Message>();
  const [source, setSource] = useState<SourceState>({ status: 'idle' });
  const [list, setList] = useState<ImportListState>();
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string>();
  const [dragging, setDragging] = useState(false);
  const [focusRequest, setFocusRequest] = useState<FocusRequest>();

  const fieldRefs = useRef<Partial<Record<CodeFormField | 'issuer', HTMLElement | null>>>({});
  const listHeadingRef = useRef<HTMLHeadingElement>(null);
  const linkRef = useRef<HTMLInputElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const startedWithImage = useRef(false);

  const others = useMemo(() => (editing ? codes.filter((code) => code.id !== editing.id) : codes), [codes, editing]);
  const knownTags = useMemo(() => allTags(codes), [codes]);
  const allErrors = formErrors(values);
  const errors: CodeFormErrors = submitted
    ? allErrors
    : Object.fromEntries(Object.entries(allErrors).filter(([field]) => touched.has(field as CodeFormField)));
  const data = formData(values, base);
  const duplicate = data ? duplicateOf(data, others) : undefined;
  const listEntries = list ? importEntries(list) : [];
  const listDuplicates = useMemo(() => {
    const found = new Map<string, Code>();
    for (const entry of list ? importEntries(list) : []) {
      const code = duplicateOf(entry.data, codes);
      if (code) found.set(entry.key, code);
    }
    return found;
  }, [list, codes]);
  const busy = saving || source.status === 'reading';

  useEffect(() => {
    if (!focusRequest) return;
    const { target: to } = focusRequest;
    const element = to === 'list' ? listHeadingRef.current : to === 'link' ? linkRef.current : fieldRefs.current[to];
    element?.focus();
  }, [focusRequest]);

  const requestFocus = (to: FocusRequest['target']) =>
    setFocusRequest((previous) => ({ target: to, count: (previous?.count ?? 0) + 1 }));

  /** Shows what a link or an image held: the form for one code, the checklist for several. */
  const showResults = (results: CodeText[]) => {
    const single = results.length === 1 && results[0]?.kind === 'code' ? results[0].data : undefined;
    if (single && !list) {
      setBase(single);
      setValues(formValues(single));
      setTouched(new Set());
      setSubmitted(false);
      setSource({ status: 'filled' });
      requestFocus('issuer');
      return;
    }
    setList((current) => withResults(current ?? emptyImportList(), results));
    setSource({ status: 'idle' });
    if (!list) requestFocus('list');
  };

  const readLink = async (text: string) => {
    setLinkError(undefined);
    if (text.trim() === '') return;
    try {
      showResults([await readCodeText(text)]);
    } catch (e) {
      setLinkError(e instanceof CodeTextError ? { key: e.errorKey, values: e.values } : { key: 'editor.qr_failed' });
    }
  };

  const readImage = async (image: Blob) => {
    setSource({ status: 'reading' });
    let texts: string[];
    try {
      texts = await decodeQRImage(image);
    } catch (e) {
      setSource({ status: 'error', message: { key: asQRReadError(e)?.errorKey ?? 'editor.qr_failed' } });
      return;
    }
    const read = await Promise.allSettled(texts.map((text) => readCodeText(text)));
    const results = read.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    if (results.length === 0) {
      const reason: unknown = read.find((outcome) => outcome.status === 'rejected')?.reason;
      setSource({
        status: 'error',
        message:
          reason instanceof CodeTextError
            ? { key: reason.errorKey, values: reason.values }
            : { key: 'editor.qr_failed' },
      });
      return;
    }
    showResults(results);
  };

  // An image dropped on the page opened the dialog: read it at once.
  useEffect(() => {
    if (target.kind !== 'add' || !target.image || startedWithImage.current) return;
    startedWithImage.current = true;
    void readImage(target.image);
    // Runs once per opening (the component is keyed by it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onPaste = (event: ClipboardEvent) => {
    if (!adding || busy) return;
    const image = firstFile(event.clipboardData, true);
    if (image) {
      event.preventDefault();
      void readImage(image);
      return;
    }
    const text = event.clipboardData.getData('text');
    if (/^\s*otpauth(-migration)?:/i.test(text)) {
      event.preventDefault();
      setLink(text.trim());
      void readLink(text);
    }
  };
  const onDragOver = (event: DragEvent) => {
    if (!adding || busy || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDragLeave = (event: DragEvent) => {
    if (!(event.relatedTarget instanceof Node) || !event.currentTarget.contains(event.relatedTarget))
      setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    setDragging(false);
    if (!adding || busy) return;
    const image = firstFile(event.dataTransfer, false);
    if (!image) return;
    event.preventDefault();
    void readImage(image);
  };

  const save = async (toSave: CodeData) => {
    setSaving(true);
    setSaveError(undefined);
    try {
      await onSave(toSave, editing);
      onClose();
    } catch (e) {
      setSaveError(failureMessage(t, i18n, e, 'editor.save_failed'));
      setSaving(false);
    }
  };

  /**
   * "Add" with a link typed but not read, and no details: the link is read first. A valid code that
   * duplicates nothing is saved at once; anything else shows as reading the link would (the form, the
   * duplicate warning, the checklist of several codes), and a link that holds no code says why.
   */
  const addFromLink = async (text: string) => {
    setLinkError(undefined);
    setSaving(true);
    let read: CodeText;
    try {
      read = await readCodeText(text);
    } catch (e) {
      setSaving(false);
      setLinkError(e instanceof CodeTextError ? { key: e.errorKey, values: e.values } : { key: 'editor.qr_failed' });
      requestFocus('link');
      return;
    }
    setSaving(false);
    const ready = read.kind === 'code' ? formData(formValues(read.data), read.data) : undefined;
    showResults([read]);
    if (ready && !duplicateOf(ready, others)) await save(ready);
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const noDetails = [values.issuer, values.account, values.secret].every((value) => value.trim() === '');
    if (adding && !list && noDetails && link.trim() !== '') {
      void addFromLink(link);
      return;
    }
    setSubmitted(true);
    if (!data) {
      const first = formFieldOrder.find((field) => allErrors[field] !== undefined);
      requestFocus(first === 'name' ? 'issuer' : (first ?? 'issuer'));
      return;
    }
    if (editing && data.secret !== editing.secret) {
      showDialog({
        title: t('editor.secret_confirm_title'),
        content: t('editor.secret_confirm_body', { name: codeName(t, editing) }),
        proceed: { text: t('editor.secret_confirm'), variant: 'critical', action: () => save(data) },
        close: { text: t('editor.cancel') },
      });
      return;
    }
    void save(data);
  };

  const addChosen = async () => {
    if (!list) return;
    setSaving(true);
    setSaveError(undefined);
    let current = list;
    for (const entry of importEntries(list)) {
      if (current.added.has(entry.key) || !isChosen(current, entry, listDuplicates.has(entry.key))) continue;
      try {
        await onSave(entry.data);
      } catch (e) {
        setSaveError(failureMessage(t, i18n, e, 'editor.save_failed'));
        setSaving(false);
        return;
      }
      current = withAdded(current, entry.key);
      setList(current);
    }
    onClose();
  };

  const startOver = () => {
    setList(undefined);
    setSource({ status: 'idle' });
    setSaveError(undefined);
    requestFocus('issuer');
  };

  const chooseImage = () => fileInputRef.current?.click();
  const titleId = `${id}-title`;
  const formId = `${id}-form`;
  const chosenCount = list
    ? listEntries.filter((entry) => !list.added.has(entry.key) && isChosen(list, entry, listDuplicates.has(entry.key)))
        .length
    : 0;

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      onPaste={onPaste}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <DialogTitle id={titleId}>{adding ? t('editor.title_add') : t('editor.title_edit')}</DialogTitle>
      <DialogContent
        sx={{
          position: 'relative',
          outline: dragging ? `2px dashed ${theme.palette.primary.main}` : 'none',
          outlineOffset: -4,
        }}
      >
        {dragging && (
          <Typography sx={{ position: 'absolute', top: 8, right: 16, color: 'primary.main' }} variant="body2">
            {t('editor.image_drop')}
          </Typography>
        )}
        <input
          ref={fileInputRef}
          type="file"
          accept="image/*"
          hidden
          tabIndex={-1}
          aria-hidden
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void readImage(file);
          }}
        />
        {adding && !list && (
          <Stack spacing={1.5} sx={{ pt: 1 }}>
            <Typography variant="subtitle1" component="h3">
              {t('editor.import_heading')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('editor.import_intro')}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
              <TextField
                label={t('editor.link_label')}
                value={link}
                onChange={(event) => {
                  setLink(event.target.value);
                  setLinkError(undefined);
                }}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    void readLink(link);
                  }
                }}
                inputRef={linkRef}
                error={linkError !== undefined}
                helperText={linkError ? keyMessage(t, i18n, linkError.key, 'editor.qr_failed', linkError.values) : ' '}
                disabled={busy}
                autoFocus
                fullWidth
                size="small"
                slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
              />
              <Button variant="outlined" onClick={() => void readLink(link)} disabled={busy} sx={{ flexShrink: 0 }}>
                {t('editor.link_read')}
              </Button>
            </Stack>
            <Box>
              <Button variant="outlined" onClick={chooseImage} disabled={busy}>
                {t('editor.image_choose')}
              </Button>
            </Box>
          </Stack>
        )}
        <Box aria-live="polite" sx={{ my: 1 }}>
          {source.status === 'reading' && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <CircularProgress size={18} aria-hidden />
              <Typography variant="body2">{t('editor.reading')}</Typography>
            </Stack>
          )}
          {source.status === 'filled' && <Alert severity="success">{t('editor.filled')}</Alert>}
        </Box>
        {source.status === 'error' && (
          <Alert severity="error" role="alert" sx={{ mb: 1 }}>
            {keyMessage(t, i18n, source.message.key, 'editor.qr_failed', source.message.values)}
          </Alert>
        )}
        {list ? (
          <ImportList
            list={list}
            duplicates={listDuplicates}
            onChoose={(key, chosen) => setList((current) => current && withChoice(current, key, chosen))}
            onNextImage={chooseImage}
            onStartOver={startOver}
            disabled={busy}
            headingRef={listHeadingRef}
          />
        ) : (
          <>
            {adding && <Divider sx={{ mb: 2 }} />}
            {adding && (
              <Typography variant="subtitle1" component="h3" sx={{ mb: 1.5 }}>
                {t('editor.manual_heading')}
              </Typography>
            )}
            <Box component="form" id={formId} noValidate onSubmit={submit} sx={{ pt: adding ? 0 : 1 }}>
              <CodeFields
                values={values}
                onChange={(next) => {
                  setValues(next);
                  setSaveError(undefined);
                }}
                errors={errors}
                onBlur={(field) =>
                  setTouched((current) => (current.has(field) ? current : new Set(current).add(field)))
                }
                knownTags={knownTags}
                hideSecret={!adding}
                // Editing starts in the first field; adding in the link field.
                autoFocus={!adding}
                disabled={saving}
                fieldRefs={fieldRefs}
              />
            </Box>
            {submitted && !data && (
              <Alert severity="error" role="alert" sx={{ mt: 2 }}>
                {t('editor.errors_summary')}
              </Alert>
            )}
            {duplicate && (
              <Alert severity="warning" role="status" sx={{ mt: 2 }}>
                {duplicate.display.trashed
                  ? t('editor.duplicate_trashed', { name: codeName(t, duplicate) })
                  : t('editor.duplicate', { name: codeName(t, duplicate) })}
              </Alert>
            )}
          </>
        )}
        {saveError && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {saveError}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {list && (
          <Button onClick={startOver} disabled={busy} sx={{ mr: 'auto' }}>
            {t('editor.start_over')}
          </Button>
        )}
        <Button onClick={onClose} disabled={saving} color="secondary">
          {t('editor.cancel')}
        </Button>
        {list ? (
          <LoadingButton
            variant="contained"
            onClick={() => void addChosen()}
            loading={saving}
            disabled={busy || chosenCount === 0}
          >
            {t('editor.add_selected')}
          </LoadingButton>
        ) : (
          <>
            {adding && duplicate && (
              <Button onClick={onClose} disabled={saving}>
                {t('editor.skip')}
              </Button>
            )}
            <LoadingButton type="submit" form={formId} variant="contained" loading={saving} disabled={busy}>
              {adding ? (duplicate ? t('editor.add_anyway') : t('editor.add')) : t('editor.save')}
            </LoadingButton>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

/**
 * Whether two targets are the same task: the same code edited (its data may have changed meanwhile: the
 * form keeps the user's work, and the save then meets the conflict), or the same new code.
 */
function sameTarget(a: CodeEditorDialogProps['target'], b: CodeEditorDialogProps['target']): boolean {
  if (a.kind === 'edit') return b.kind === 'edit' && a.code.id === b.code.id;
  return b.kind === 'add' && a.initial === b.initial && a.image === b.image;
}
