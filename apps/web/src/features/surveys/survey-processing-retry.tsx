import { type BulkPreview, failedInScope, type ProcessingItem, processingItemResource } from '@admin/shared/resources/survey-processing';
import { type FilteredBulkAction, FilteredBulkButton } from '../../components/resource/filtered-bulk-action.tsx';
import type { ResourceList } from '../../components/resource/resource-page.tsx';

const retryFailed: FilteredBulkAction<BulkPreview, { changed: number }> = {
  path: `${processingItemResource.path}/retry`,
  note: 'Every client’s invitations, unless the Clients filter narrows them.',
  button: 'Retry failed in this filter',
  title: (p) => `Retry ${failedInScope(p.count, p.scope)}?`,
  emptyTitle: 'No failed invitations to retry',
  explain: (p) =>
    p.count > 0 ? 'Each is scheduled to be sent again now; nothing else changes.' : `This filter finds no failed invitation in ${p.scope}.`,
  verb: 'Retry',
  done: (r, confirmed) => `${failedInScope(r.changed, confirmed.scope)} scheduled again`,
  countFailed: 'Could not count the failed invitations',
  actFailed: 'Nothing was retried',
};

/**
 * Retry failed over the current filter (the kit's filtered-bulk-action.tsx). It first asks the
 * server what it would change and says it ("Retry 3 failed invitations in all clients?", with the
 * other filters in words); the retry then changes exactly the count confirmed, or nothing when the
 * filter finds another number by then (issue 19, item 2).
 */
export function RetryFiltered({ list }: { list: ResourceList<ProcessingItem> }) {
  return <FilteredBulkButton list={list} action={retryFailed} />;
}
