import { referralSourceResource } from '@admin/shared';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { referralSourceStore } from './repository.ts';

/** Referral sources: the current client's own and the global defaults (collection `/api/referral-source`). */
export const referralSourceRoutes = resourceRoutes(referralSourceResource, referralSourceStore);
