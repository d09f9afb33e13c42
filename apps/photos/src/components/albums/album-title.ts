// The name an album is shown by: the "uncategorized" and "favorites" albums by their names in the person's language
// (Ente's clients store English ones, "Uncategorized" and "Favorites", and show their own words), any other album by
// the name its owner gave it.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import type { Album } from '../../library/types.ts';

/** The same function while the language stays (a dependency of memoized work, such as the list's order). */
export function useAlbumTitle(): (album: Pick<Album, 'name' | 'type'>) => string {
  const { t } = useTranslation('photos');
  return useCallback(
    (album) => {
      if (album.type === 'uncategorized') return t('albums.name_uncategorized');
      if (album.type === 'favorites') return t('albums.name_favorites');
      return album.name;
    },
    [t],
  );
}
