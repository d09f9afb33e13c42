// The header every page shares (docs/product.md#app-shell): the product logo and the app menu.
import Box from '@mui/material/Box';

import { AppMenu } from './AppMenu.tsx';
import { EnteLogo } from './EnteLogo.tsx';

export function PageHeader() {
  return (
    <Box
      component="header"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: { xs: 2, sm: 3 }, py: 1.5 }}
    >
      <EnteLogo />
      <AppMenu />
    </Box>
  );
}
