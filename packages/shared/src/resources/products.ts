import { z } from 'zod';
import { idParamSchema } from '../api/ids.ts';
import { type ColumnDef, exportColumnsSchema, listQuerySchema, multiValue } from '../api/list.ts';
import { STATUSES } from '../constants.ts';

/** Product (domain.md §15): one definition for the API, the form and the table. */
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

export const productFieldRules = {
  name: 'required|max:120',
  code: 'required|alpha_dash|max:64',
  category: 'max:60',
  description: 'max:500',
} as const;

const text = z.string().max(5000).nullable().optional();
export const productCreateSchema = z.strictObject({ name: text, code: text, category: text, description: text });
export type ProductCreate = z.infer<typeof productCreateSchema>;
export const productUpdateSchema = productCreateSchema.extend({ updated_at: z.string().max(40).optional() });
export const productIdParamSchema = idParamSchema;

export const PRODUCT_COLUMN_KEYS = ['name', 'code', 'client_name', 'category', 'status', 'created_at'] as const;
export const productColumns: ColumnDef<(typeof PRODUCT_COLUMN_KEYS)[number]>[] = [
  { key: 'name', label: 'Name', sortable: true, defaultVisible: true },
  { key: 'code', label: 'Code', sortable: true, defaultVisible: true },
  { key: 'client_name', label: 'Client', defaultVisible: true },
  { key: 'category', label: 'Category', sortable: true, defaultVisible: true },
  { key: 'status', label: 'Status', sortable: true, defaultVisible: true },
  { key: 'created_at', label: 'Created', defaultVisible: false },
];

export const PRODUCT_SORTS = ['name', 'code', 'category', 'status'] as const;
export const productFilters = {
  status: multiValue(z.enum(STATUSES)).optional(),
  category: multiValue(z.string().max(60)).optional(),
};
export const productListQuerySchema = listQuerySchema(PRODUCT_SORTS, productFilters);
export type ProductListQuery = z.infer<typeof productListQuerySchema>;
export const productExportQuerySchema = listQuerySchema(PRODUCT_SORTS, {
  ...productFilters,
  columns: exportColumnsSchema(PRODUCT_COLUMN_KEYS).optional(),
});
