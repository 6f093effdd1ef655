import { z } from 'zod';
import { defineResource, statusFilter, statusLabel } from '../api/resource.ts';
import { STATUSES } from '../constants.ts';

/** A product or service a client sells, named in surveys and reports. */
export const productSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  name: z.string(),
  code: z.string(),
  category: z.string().nullable(),
  description: z.string().nullable(),
  status: z.enum(STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Product = z.infer<typeof productSchema>;

export const productResource = defineResource({
  name: 'product',
  path: '/api/product',
  screen: 'products',
  scope: 'current-client',
  record: productSchema,
  fields: {
    name: { label: 'Name', rules: 'required|max:120' },
    code: { label: 'Code', rules: 'required|alpha_dash|max:64', placeholder: 'e.g. TIRE-ROT' },
    category: { label: 'Category', rules: 'max:60' },
    description: { label: 'Description', rules: 'max:500', input: 'textarea' },
  },
  columns: {
    name: { label: 'Name', sortable: true },
    code: { label: 'Code', sortable: true },
    client_name: { label: 'Client' },
    category: { label: 'Category', sortable: true },
    status: { label: 'Status', sortable: true, format: (p) => statusLabel(p.status) },
    created_at: { label: 'Created', defaultVisible: false },
  },
  filters: { status: statusFilter, category: { kind: 'multi', label: 'Category', item: z.string().max(60) } },
  defaultSort: { sort: 'name', order: 'asc' },
  search: 'Name or code',
  importColumns: ['name', 'code', 'category', 'description'],
  unique: 'code',
  statusEffects: {
    paused: 'Surveys and reports stop offering this product until it is resumed.',
    inactive: 'The product is archived and hidden by default. You can restore it later.',
  },
});

export type ProductCreate = z.infer<typeof productResource.createSchema>;
export type ProductListQuery = z.infer<typeof productResource.listQuerySchema>;
