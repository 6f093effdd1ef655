import { type SurveyAlertEvent, surveyAlertEventResource } from '@admin/shared/resources/survey-alert-events';
import { type FilteredBulkAction, FilteredBulkButton } from '../../components/resource/filtered-bulk-action.tsx';
import type { ResourceList } from '../../components/resource/resource-page.tsx';

type Preview = { count: number; scope: string };
const counted = (n: number) => `${n.toLocaleString('en-US')} unsent alert${n === 1 ? '' : 's'}`;

const resendAll: FilteredBulkAction<Preview, { changed: number; delivered: number }> = {
  path: `${surveyAlertEventResource.path}/resend`,
  note: 'Survey alerts that did not reach their recipient, in every client unless the Clients filter narrows them.',
  button: 'Resend all in this filter',
  title: (p) => `Resend ${counted(p.count)} in ${p.scope}?`,
  emptyTitle: 'No unsent alerts to resend',
  explain: (p) =>
    p.count > 0 ? 'Each goes again to its recipients as the rule names them today.' : 'This filter finds no unsent or retrying alert.',
  verb: 'Resend',
  done: (r) => `${counted(r.changed)} resent, ${r.delivered.toLocaleString('en-US')} delivered`,
  countFailed: 'Could not count the unsent alerts',
  actFailed: 'Nothing was resent',
};

/**
 * Resend over the current filter, confirmed as Survey Processing's "Retry failed in this filter"
 * is (the kit's filtered-bulk-action.tsx serves both): the server first says how many and in which
 * clients; the resend then changes exactly the count confirmed, or nothing when the filter finds
 * another number by then.
 */
export function ResendFiltered({ list }: { list: ResourceList<SurveyAlertEvent> }) {
  return <FilteredBulkButton list={list} action={resendAll} />;
}
