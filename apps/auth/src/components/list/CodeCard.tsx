// One card of the list (docs/product.md#the-codes): brand icon, issuer, account, the current code
// grouped for reading, the next one, a draining bar, pin mark, tags and note; in the trash, the
// restore and delete-forever buttons instead of the codes. The card is the list item itself and takes
// the keyboard focus (CodeList.tsx explains the pattern); its buttons are reachable with Tab only while
// the card is the active one. A card re-renders when its code's period changes (services/ticker.ts),
// not every second.
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PushPinIcon from '@mui/icons-material/PushPin';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import { keyframes, styled } from '@mui/material/styles';
import {
  createContext,
  memo,
  useContext,
  useId,
  useMemo,
  useState,
  useSyncExternalStore,
  type DragEvent,
  type MouseEvent,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';

import { codesAt, formatOTP } from '../../services/otp.ts';
import { packedPhase, periodMs, unpackPhase, type Ticker } from '../../services/ticker.ts';
import type { Code } from '../../services/types.ts';
import { visibleText } from '../../services/visible-text.ts';
import { UserText } from '../UserText.tsx';
import { BrandAvatar } from './BrandAvatar.tsx';

/** What the cards do; one stable object for the whole list (a context, so cards need not re-render). */
export interface CardActions {
  ticker: Ticker;
  copy: (code: Code, which: 'current' | 'next') => void;
  openMenu: (code: Code, anchor: HTMLElement) => void;
  restore: (code: Code) => void;
  deleteForever: (code: Code) => void;
  copyRaw: (raw: string) => void;
  dragStart: (id: string, event: DragEvent<HTMLElement>) => void;
  dragOver: (id: string, event: DragEvent<HTMLElement>) => void;
  drop: (id: string, event: DragEvent<HTMLElement>) => void;
  dragEnd: () => void;
}

export const CardActionsContext = createContext<CardActions | undefined>(undefined);

export function useCardActions(): CardActions {
  const actions = useContext(CardActionsContext);
  if (!actions) throw new Error('useCardActions needs a CardActionsContext above it');
  return actions;
}

/** What every item of the list receives from CodeList. */
export interface ItemProps {
  /** 0-based position in the list, and the list's length (for aria-posinset / aria-setsize). */
  index: number;
  setSize: number;
  /** The one item of the list in the tab order. */
  active: boolean;
  compact: boolean;
  /** Where the item sits (CodeList's virtualizer), and its ref for measuring. */
  top: number;
  itemRef: Ref<HTMLDivElement>;
}

export interface CodeCardProps extends ItemProps {
  code: Code;
  view: 'codes' | 'trash';
  /** Codes are masked until revealed (display option). */
  hidden: boolean;
  revealed: boolean;
  editable: boolean;
  /** Manual order: the card can be dragged. */
  draggable: boolean;
  /** Where a dragged card would land relative to this one. */
  dropSide?: 'before' | 'after';
}

export const CodeCard = memo(function CodeCard(props: CodeCardProps) {
  const { code, view, index, setSize, active, compact, top, itemRef, editable, draggable, dropSide } = props;
  const { t } = useTranslation('codes');
  const actions = useCardActions();
  const id = useId();
  const inTrash = view === 'trash';
  // Names as shown and as read out: hidden characters as markers (visible-text.ts).
  const issuer = visibleText(code.issuer || code.account) || t('list.noIssuer');
  const account = code.issuer ? visibleText(code.account) : '';
  const { tags, note } = code.display;
  const describedBy = inTrash ? undefined : `${id}-code ${id}-next${code.display.pinned ? ` ${id}-pin` : ''}`;
  return (
    <Item
      ref={itemRef}
      role="listitem"
      aria-posinset={index + 1}
      aria-setsize={setSize}
      aria-labelledby={account ? `${id}-issuer ${id}-account` : `${id}-issuer`}
      aria-describedby={describedBy}
      tabIndex={active ? 0 : -1}
      data-index={index}
      data-code-id={code.id}
      style={{ transform: `translateY(${top}px)` }}
      draggable={draggable}
      onClick={inTrash ? undefined : () => actions.copy(code, 'current')}
      onDragStart={draggable ? (event) => actions.dragStart(code.id, event) : undefined}
      onDragOver={(event) => actions.dragOver(code.id, event)}
      onDrop={(event) => actions.drop(code.id, event)}
      onDragEnd={draggable ? () => actions.dragEnd() : undefined}
    >
      <Card className="card" data-compact={compact || undefined} data-drop={dropSide}>
        <Header>
          <BrandAvatar
            iconID={code.display.iconID}
            issuer={code.issuer}
            fallback={code.issuer || code.account}
            size={compact ? 24 : 32}
          />
          <Titles data-compact={compact || undefined}>
            <Issuer id={`${id}-issuer`}>
              <bdi>{issuer}</bdi>
            </Issuer>
            {account && (
              <Account id={`${id}-account`}>
                <bdi>{account}</bdi>
              </Account>
            )}
          </Titles>
          {code.display.pinned && (
            <PinMark>
              <PushPinIcon fontSize="small" aria-hidden />
              <VisuallyHidden id={`${id}-pin`}>{t('list.pinned')}</VisuallyHidden>
            </PinMark>
          )}
          {compact && !inTrash && <Codes {...props} id={id} />}
          {!inTrash && (
            <IconButton
              size="small"
              aria-label={t('list.actionsFor', { name: issuer })}
              aria-haspopup="menu"
              tabIndex={active ? 0 : -1}
              onClick={(event: MouseEvent<HTMLElement>) => {
                event.stopPropagation();
                actions.openMenu(code, event.currentTarget);
              }}
            >
              <MoreVertIcon fontSize="small" />
            </IconButton>
          )}
        </Header>
        {!compact && !inTrash && <Codes {...props} id={id} />}
        {!compact && (tags.length > 0 || note) && (
          <Details>
            {tags.length > 0 && (
              <Tags aria-label={t('list.tags')}>
                {tags.slice(0, tagsOnCard).map((tag) => (
                  <li key={tag}>
                    <UserText text={tag} />
                  </li>
                ))}
                {tags.length > tagsOnCard && <li>{t('list.moreTagsOnCard', { count: tags.length - tagsOnCard })}</li>}
              </Tags>
            )}
            {note && (
              <Note>
                <UserText text={note} />
              </Note>
            )}
          </Details>
        )}
        {inTrash && (
          <TrashActions>
            <Button
              size="small"
              startIcon={<RestoreFromTrashIcon />}
              disabled={!editable}
              tabIndex={active ? 0 : -1}
              aria-label={t('list.restoreNamed', { name: issuer })}
              onClick={() => actions.restore(code)}
            >
              {t('list.restore')}
            </Button>
            <Button
              size="small"
              color="critical"
              startIcon={<DeleteForeverIcon />}
              disabled={!editable}
              tabIndex={active ? 0 : -1}
              aria-label={t('list.deleteForeverNamed', { name: issuer })}
              onClick={() => actions.deleteForever(code)}
            >
              {t('list.deleteForever')}
            </Button>
          </TrashActions>
        )}
      </Card>
    </Item>
  );
});

/** How many of its tags a card shows; the rest are counted ("+290 more"). */
export const tagsOnCard = 10;

/** The codes and the bar of a card: the part that follows the clock. */
function Codes({ code, compact, hidden, revealed, id }: CodeCardProps & { id: string }) {
  const { t } = useTranslation('codes');
  const { ticker } = useCardActions();
  const { type } = code;
  // Steam codes change every 30 s whatever the URI says (services/otp.ts).
  const period = type === 'steam' ? 30 : code.period;
  const packed = useSyncExternalStore(
    ticker.subscribe,
    () => packedPhase(type, period, ticker.now()),
    () => 0,
  );
  const phase = unpackPhase(type, period, packed, ticker.now());
  const codes = useMemo(() => generate(code, phase.step * periodMs(period)), [code, phase.step, period]);
  const masked = hidden && !revealed;
  const show = (value: string | undefined) => {
    if (value === undefined) return t('list.noCode');
    if (!masked) return formatOTP(value);
    return (
      <>
        <VisuallyHidden>{t('list.hiddenCode')}</VisuallyHidden>
        <span aria-hidden>{formatOTP('•'.repeat(value.length))}</span>
      </>
    );
  };
  return (
    <>
      <CodeRow data-compact={compact || undefined}>
        <Current id={`${id}-code`} data-testid="current-code" data-compact={compact || undefined}>
          {show(codes?.current)}
        </Current>
        <Next id={`${id}-next`} data-testid="next-code" data-compact={compact || undefined}>
          <NextLabel>{t('list.next')}</NextLabel> {show(codes?.next)}
        </Next>
      </CodeRow>
      <Track aria-hidden data-compact={compact || undefined}>
        {type === 'hotp' ? (
          <Fill className="static" />
        ) : (
          <DrainBar key={phase.step} ticker={ticker} period={period} step={phase.step} warn={phase.warn} />
        )}
      </Track>
    </>
  );
}

/**
 * The bar of one period: a transform animation over the whole period, started where the period
 * stands when it mounts (a new period is a new bar, keyed by its index), so the compositor moves it.
 */
function DrainBar({ ticker, period, step, warn }: { ticker: Ticker; period: number; step: number; warn: boolean }) {
  const [delay] = useState(() => Math.max(0, ticker.now() - step * periodMs(period)) / 1000);
  return (
    <Fill
      className={warn ? 'warn' : undefined}
      data-warn={warn || undefined}
      style={{ animationDuration: `${periodMs(period) / 1000}s`, animationDelay: `-${delay}s` }}
    />
  );
}

function generate(code: Code, timeMs: number): { current: string; next: string } | undefined {
  try {
    return codesAt(code, timeMs);
  } catch {
    return undefined;
  }
}

const drain = keyframes`
  from { transform: scaleX(1); }
  to { transform: scaleX(0); }
`;

// The list item (of a code, and of an unreadable entity): positioned by the virtualizer; the gap below the
// card is part of its measured size.
export const ListItemFrame = styled('div')({
  position: 'absolute',
  top: 0,
  left: 0,
  width: '100%',
  paddingBottom: 8,
  outline: 'none',
  '&:focus-visible > .card': { outline: '2px solid', outlineOffset: 2 },
});

const Item = styled(ListItemFrame)({ cursor: 'pointer' });

const Card = styled('div')(({ theme }) => ({
  position: 'relative',
  display: 'flex',
  flexDirection: 'column',
  gap: theme.spacing(1),
  padding: theme.spacing(1.5, 1.5, 1.5, 2),
  borderRadius: theme.shape.borderRadius,
  backgroundColor: theme.palette.background.paper,
  border: `1px solid ${theme.palette.divider}`,
  outlineColor: theme.palette.primary.main,
  '&:hover': { borderColor: theme.palette.text.secondary },
  '&[data-compact]': { padding: theme.spacing(0.75, 1, 0.75, 1.5), gap: theme.spacing(0.5) },
  '&[data-drop=before]': { boxShadow: `0 -3px 0 ${theme.palette.primary.main}` },
  '&[data-drop=after]': { boxShadow: `0 3px 0 ${theme.palette.primary.main}` },
}));

const Header = styled('div')(({ theme }) => ({ display: 'flex', alignItems: 'center', gap: theme.spacing(1.5) }));

const Titles = styled('div')({
  flex: 1,
  minWidth: 0,
  display: 'flex',
  flexDirection: 'column',
  '&[data-compact]': { flexDirection: 'row', gap: 8, alignItems: 'baseline' },
});

const ellipsis = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

const Issuer = styled('span')(({ theme }) => ({ ...theme.typography.subtitle1, fontWeight: 600, ...ellipsis }));

const Account = styled('span')(({ theme }) => ({
  ...theme.typography.body2,
  color: theme.palette.text.secondary,
  ...ellipsis,
}));

const PinMark = styled('span')(({ theme }) => ({ display: 'flex', color: theme.palette.text.secondary }));

const CodeRow = styled('div')(({ theme }) => ({
  display: 'flex',
  alignItems: 'baseline',
  justifyContent: 'space-between',
  gap: theme.spacing(2),
  '&[data-compact]': { display: 'contents' },
}));

const Current = styled('span')({
  fontSize: '1.75rem',
  fontWeight: 600,
  letterSpacing: '0.04em',
  fontVariantNumeric: 'tabular-nums',
  lineHeight: 1.2,
  whiteSpace: 'nowrap',
  '&[data-compact]': { fontSize: '1.125rem' },
});

const Next = styled('span')(({ theme }) => ({
  ...theme.typography.body2,
  color: theme.palette.text.secondary,
  fontVariantNumeric: 'tabular-nums',
  whiteSpace: 'nowrap',
  '&[data-compact]': { display: 'none' },
}));

const NextLabel = styled('span')({ textTransform: 'lowercase' });

const Track = styled('div')(({ theme }) => ({
  height: 4,
  borderRadius: 2,
  overflow: 'hidden',
  backgroundColor: theme.palette.action.hover,
  '&[data-compact]': { position: 'absolute', left: 8, right: 8, bottom: 2, height: 2 },
}));

const Fill = styled('div')(({ theme }) => ({
  height: '100%',
  transformOrigin: 'left center',
  backgroundColor: theme.palette.primary.main,
  animationName: drain,
  animationTimingFunction: 'linear',
  animationFillMode: 'both',
  willChange: 'transform',
  '&.warn': { backgroundColor: theme.palette.warning.main },
  '&.static': { animation: 'none', willChange: 'auto' },
}));

const Details = styled('div')(({ theme }) => ({ display: 'flex', flexDirection: 'column', gap: theme.spacing(0.5) }));

const Tags = styled('ul')(({ theme }) => ({
  display: 'flex',
  flexWrap: 'wrap',
  gap: theme.spacing(0.5),
  margin: 0,
  padding: 0,
  listStyle: 'none',
  '& > li': {
    ...theme.typography.caption,
    padding: theme.spacing(0, 1),
    borderRadius: 10,
    border: `1px solid ${theme.palette.divider}`,
    color: theme.palette.text.secondary,
  },
}));

const Note = styled('p')(({ theme }) => ({
  ...theme.typography.body2,
  margin: 0,
  color: theme.palette.text.secondary,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  display: '-webkit-box',
  WebkitLineClamp: 3,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
}));

const TrashActions = styled('div')(({ theme }) => ({ display: 'flex', gap: theme.spacing(1), flexWrap: 'wrap' }));

export const VisuallyHidden = styled('span')({
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
});
