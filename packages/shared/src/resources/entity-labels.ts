import { apiEndpointResource } from './api-endpoints.ts';
import { apiTokenResource } from './api-tokens.ts';
import { clientResource } from './clients.ts';
import { dataFeedResource } from './data-feeds.ts';
import { locationResource } from './locations.ts';
import { notificationLogResource } from './notification-logs.ts';
import { personnelResource } from './personnel.ts';
import { productResource } from './products.ts';
import { type DiffRow, describedDiff, keyText } from './readable-diff.ts';
import { referralSourceResource } from './referral-sources.ts';
import { smsTemplateResource } from './sms-templates.ts';
import { feedRunResource } from './survey-manager-logs.ts';
import { processingItemResource } from './survey-processing.ts';
import { surveyResponseResource } from './survey-responses.ts';
import { surveySettingsResource } from './survey-settings.ts';
import { surveyResource } from './surveys.ts';

/**
 * The resources an audit entry (System Logs) names by their definition's name (`entity_type`,
 * the kit writes `def.name`): how a person reads the entity and the fields of its before/after.
 */
const AUDITED = [
  apiEndpointResource,
  apiTokenResource,
  clientResource,
  dataFeedResource,
  locationResource,
  notificationLogResource,
  personnelResource,
  productResource,
  referralSourceResource,
  smsTemplateResource,
  feedRunResource,
  processingItemResource,
  surveyResponseResource,
  surveySettingsResource,
  surveyResource,
];
const BY_NAME = new Map<string, (typeof AUDITED)[number]>(AUDITED.map((r) => [r.name, r]));

/** `survey_processing_item` → `Invitation`, `user` → `User`: the resource's noun, else the key made readable. */
export const entityLabel = (type: string): string => keyText(BY_NAME.get(type)?.noun ?? type);

/** `Invitation 571`: an audited entity as people read it (System Logs' Entity), or null without one. */
export const entityText = (type: string | null, id: string | null): string | null =>
  type ? `${entityLabel(type)}${id ? ` ${id}` : ''}` : null;

/** An audited change's fields by the entity's form labels (its definition), values in words. */
export function entityDiff(
  type: string | null,
  diff: Record<string, { before: unknown; after: unknown }>,
  zone?: string | null,
): DiffRow[] {
  const def = type ? BY_NAME.get(type) : undefined;
  return describedDiff(def ?? { fields: {} }, diff, zone);
}

/**
 * `product.update` → `Product: update`, `auth.login.refused` → `Auth: login refused`: a System Logs
 * event (what it is about, then what happened) in words rather than as its key.
 */
export function eventText(action: string): string {
  const [about = '', ...what] = action.split('.');
  const rest = what.join(' ').replace(/_/g, ' ');
  return rest ? `${entityLabel(about)}: ${rest}` : entityLabel(about);
}
