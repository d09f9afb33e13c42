// What Ente's photos clients ask for around the gallery besides files (docs/protocol.md#photos): the
// feature flags they read before every pull (a failure there skips the pull; `castUrl` is CAST_APP_URL, the
// page their cast dialog names) and the plans the sign-up plan selector lists. A self-hosted server has no
// hosted features and one free plan whose storage is the account quota (services/files.ts).
import type { FastifyInstance } from 'fastify';

import type { FeatureFlagsResponse, UserPlansResponse } from '@ente/protocol';

import type { Context } from '../services/context.ts';
import { storageQuotaOf } from '../services/files.ts';

const featureFlags: Omit<FeatureFlagsResponse, 'castUrl'> = {
  enableStripe: false,
  disableCFWorker: false,
  mapEnabled: false,
  faceSearchEnabled: false,
  passKeyEnabled: false,
  recoveryKeyVerified: false,
  internalUser: false,
  betaUser: false,
  enableMobMultiPart: true,
  serverApiFlag: 0,
  embedUrl: '',
};

export function registerGallerySupportRoutes(app: FastifyInstance, ctx: Context): void {
  // The same answer for every request: the cast page's address is set at start.
  const flags: FeatureFlagsResponse = { ...featureFlags, castUrl: ctx.config.CAST_APP_URL ?? '' };
  app.get('/remote-store/feature-flags', { config: { auth: true } }, () => flags);

  app.get('/billing/user-plans', { config: { auth: true } }, () => {
    return {
      freePlan: { storage: storageQuotaOf(ctx), duration: 100, period: 'year' },
      plans: [],
    } satisfies UserPlansResponse;
  });
}
