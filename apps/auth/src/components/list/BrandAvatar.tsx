// The icon of a card: the brand's simple-icons glyph (a CSS mask over the brand colour, or over the
// text colour when the brand colour would not stand out from the card), else the first letter of the
// issuer. Decorative: the issuer is written next to it.
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { createContext, memo, useContext, useMemo } from 'react';

import { findBrandIcon, readableOn, type BrandIndex } from '../../services/brand-icons.ts';
import { withoutHiddenText } from '../../services/visible-text.ts';

/** The brand icon index once fetched (undefined before, or when it could not be fetched). */
export const BrandIndexContext = createContext<BrandIndex | undefined>(undefined);

export const BrandAvatar = memo(function BrandAvatar({
  iconID,
  issuer,
  fallback,
  size,
}: {
  iconID: string;
  issuer: string;
  /** Text whose first letter shows when there is no icon (the issuer, else the account). */
  fallback: string;
  size: number;
}) {
  const index = useContext(BrandIndexContext);
  const theme = useTheme();
  const icon = useMemo(() => (index ? findBrandIcon(index, iconID, issuer) : undefined), [index, iconID, issuer]);
  if (icon) {
    const color = readableOn(icon.color, theme.palette.background.paper) ? icon.color : theme.palette.text.primary;
    const mask = `url("${icon.url}") center / contain no-repeat`;
    return (
      <Box
        aria-hidden
        data-brand={icon.slug}
        sx={{ width: size, height: size, flexShrink: 0, bgcolor: color, mask, WebkitMask: mask }}
      />
    );
  }
  const letter = Array.from(withoutHiddenText(fallback).trim())[0]?.toLocaleUpperCase() ?? '?';
  return (
    <Box
      aria-hidden
      sx={{
        width: size,
        height: size,
        flexShrink: 0,
        borderRadius: '50%',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'action.selected',
        color: 'text.primary',
        fontWeight: 600,
        fontSize: size * 0.5,
        lineHeight: 1,
      }}
    >
      {letter}
    </Box>
  );
});
