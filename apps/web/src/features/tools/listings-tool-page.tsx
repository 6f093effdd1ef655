import { type Listing, type ListingStatus, listingResource, listingStatusLabel, matchLabel } from '@admin/shared';
import { Anchor, Badge } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { DateTimeCell, EmptyCell } from '../../components/data-table/cells.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { useSession } from '../../lib/session-store.ts';
import { ListingActions, listingName } from './listings-actions.tsx';
import { ScanBar, useListingScan } from './listings-scan.tsx';

const STATUS_COLORS: Record<ListingStatus, string> = {
  accurate: 'green',
  needs_update: 'red',
  not_found: 'gray',
  duplicate: 'orange',
  unclaimed: 'yellow',
  pending_update: 'blue',
  suppressed: 'gray',
  not_checked: 'gray',
};

/** A field's verdict: Match in green, Mismatch in red, a dash when it was not compared. */
function MatchCell({ match }: { match: boolean | null }) {
  if (match === null) return <EmptyCell />;
  return (
    <Badge variant="light" color={match ? 'green' : 'red'}>
      {matchLabel(match)}
    </Badge>
  );
}

const cells = {
  status: (r: Listing) => (
    <Badge variant="light" color={STATUS_COLORS[r.listing_status]}>
      {listingStatusLabel(r.listing_status)}
    </Badge>
  ),
  listing_url: (r: Listing) =>
    r.listing_url ? (
      <Anchor href={r.listing_url} target="_blank" rel="noreferrer noopener" size="sm">
        {r.listing_url.replace(/^https?:\/\//, '').slice(0, 40)}
      </Anchor>
    ) : (
      <EmptyCell />
    ),
  name_match: (r: Listing) => <MatchCell match={r.name_match} />,
  address_match: (r: Listing) => <MatchCell match={r.address_match} />,
  phone_match: (r: Listing) => <MatchCell match={r.phone_match} />,
  website_match: (r: Listing) => <MatchCell match={r.website_match} />,
  hours_match: (r: Listing) => <MatchCell match={r.hours_match} />,
  // The client's zone, named (formatMoment), the viewer's own on hover.
  last_checked_at: (r: Listing) => <DateTimeCell value={r.last_checked_at} zone={r.client_timezone} />,
};

/**
 * Listings Tool (domain.md §12): each location on each directory, field by field against the
 * location's record, with a score and a status; Scan now with its progress, the row actions and
 * the fix list. Cards below 640 px come from the definition's `card`.
 */
export default function ListingsToolPage() {
  const currentClient = useSession((s) => s.currentClient);
  const queryClient = useQueryClient();
  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: [listingResource.screen] }), [queryClient]);
  const { scan, running, start } = useListingScan(currentClient?.id, refresh);
  return (
    <ResourcePage<Listing>
      resource={listingResource}
      readOnly
      cells={cells}
      title={listingName}
      intro={(list) => (
        <ScanBar
          clientName={currentClient?.name ?? null}
          scan={scan}
          running={running}
          onScan={() => void start(null)}
          fixList={list.exportQuery}
        />
      )}
      rowActions={(row, list) => <ListingActions row={row} onChanged={() => void list.refresh()} onScan={(id) => void start(id)} />}
      empty="No listings match these filters. Scan now reads every directory for the client's locations."
    />
  );
}
