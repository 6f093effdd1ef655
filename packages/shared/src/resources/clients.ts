import { z } from 'zod';
import { STATUSES } from '../constants.ts';

export const rootTeamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  clientId: z.number().int(),
  clientName: z.string(),
});
export type RootTeam = z.infer<typeof rootTeamSchema>;

export const INDUSTRIES = [
  'home_services',
  'automotive',
  'healthcare',
  'dental',
  'senior_care',
  'legal',
  'financial',
  'retail',
  'hospitality',
  'other',
] as const;

export const MODULES = ['surveys', 'reputation', 'listings', 'sms'] as const;

export const clientSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  industry: z.enum(INDUSTRIES),
  website: z.string().nullable(),
  phone: z.string().nullable(),
  address1: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postal_code: z.string().nullable(),
  country: z.string(),
  timezone: z.string(),
  root_team_id: z.number().int().nullable(),
  account_coordinator_id: z.number().int().nullable(),
  primary_contact_name: z.string().nullable(),
  primary_contact_email: z.string().nullable(),
  modules: z.array(z.enum(MODULES)),
  default_review_site: z.string(),
  status: z.enum(STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Client = z.infer<typeof clientSchema>;

/** Path id of a client, e.g. `/api/clients/7`. */
export const clientIdParamSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const switchClientParamSchema = z.object({
  clientId: z.coerce.number().int().positive().max(2_147_483_647),
});
