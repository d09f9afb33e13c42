// A list item for an entity that could not be read (it does not decrypt, or its text is not a code
// URI we can parse): what is known of it, why it cannot be shown, and "copy raw data" so that nothing
// the user had is lost. Same item pattern as CodeCard.
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import ErrorOutlineOutlinedIcon from '@mui/icons-material/ErrorOutlineOutlined';
import Button from '@mui/material/Button';
import { styled } from '@mui/material/styles';
import { memo, useId } from 'react';
import { useTranslation } from 'react-i18next';

import type { BrokenItem } from '../../services/types.ts';
import { visibleText } from '../../services/visible-text.ts';
import { ListItemFrame, useCardActions, type ItemProps } from './CodeCard.tsx';

/** `t` for the item's key, known only at run time, with the values its message interpolates. */
type DynamicT = (key: string, values: Record<string, string>) => string;

export const BrokenCard = memo(function BrokenCard({
  item,
  index,
  setSize,
  active,
  top,
  itemRef,
}: ItemProps & { item: BrokenItem }) {
  const { t } = useTranslation('codes');
  const actions = useCardActions();
  const id = useId();
  const name = visibleText(item.issuer ?? '') || t('list.unreadable');
  // The refused value (a digit count, a period…) came from the entity: shown with the same rule.
  const values = Object.fromEntries(
    Object.entries(item.errorValues ?? {}).map(([key, value]) => [key, visibleText(value)]),
  );
  const raw = item.raw;
  return (
    <ListItemFrame
      ref={itemRef}
      role="listitem"
      aria-posinset={index + 1}
      aria-setsize={setSize}
      aria-labelledby={`${id}-name`}
      aria-describedby={`${id}-error`}
      tabIndex={active ? 0 : -1}
      data-index={index}
      data-code-id={item.id}
      data-broken
      style={{ transform: `translateY(${top}px)` }}
    >
      <Card className="card">
        <Header>
          <ErrorOutlineOutlinedIcon color="error" aria-hidden />
          <Name id={`${id}-name`}>
            <bdi>{name}</bdi>
          </Name>
        </Header>
        <Message id={`${id}-error`}>{(t as unknown as DynamicT)(item.errorKey, values)}</Message>
        <div>
          <Button
            size="small"
            startIcon={<ContentCopyIcon />}
            disabled={raw === undefined}
            tabIndex={active ? 0 : -1}
            aria-label={t('list.copyRawNamed', { name })}
            onClick={() => raw !== undefined && actions.copyRaw(raw)}
          >
            {t('list.copyRaw')}
          </Button>
        </div>
      </Card>
    </ListItemFrame>
  );
});

const Card = styled('div')(({ theme }) => ({
  display: 'flex',
  flexDirection: 'column',
  gap: theme.spacing(1),
  padding: theme.spacing(1.5, 2),
  borderRadius: theme.shape.borderRadius,
  backgroundColor: theme.palette.background.paper,
  border: `1px dashed ${theme.palette.error.main}`,
  outlineColor: theme.palette.primary.main,
}));

const Header = styled('div')(({ theme }) => ({ display: 'flex', alignItems: 'center', gap: theme.spacing(1.5) }));

const Name = styled('span')(({ theme }) => ({
  ...theme.typography.subtitle1,
  fontWeight: 600,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
}));

const Message = styled('p')(({ theme }) => ({
  ...theme.typography.body2,
  margin: 0,
  color: theme.palette.text.secondary,
}));
