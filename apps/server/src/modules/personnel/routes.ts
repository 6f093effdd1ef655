import { personnelResource } from '@admin/shared';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { personnelStore } from './repository.ts';

/** Personnel of the current client (collection `/api/personnel`): the kit's routes for the definition. */
export const personnelRoutes = resourceRoutes(personnelResource, personnelStore);
