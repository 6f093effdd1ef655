import { productResource } from '@admin/shared';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { productStore } from './repository.ts';

/** Products of the current client (collection `/api/product`): the kit's routes for the definition. */
export const productRoutes = resourceRoutes(productResource, productStore);
