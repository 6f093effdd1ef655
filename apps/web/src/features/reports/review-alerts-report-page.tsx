import { deliveryStatusText, type ReviewAlertReportRow, reviewAlertReportResource } from '@admin/shared';
import { Badge } from '@mantine/core';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { ReviewAlertRowActions } from './review-alerts-actions.tsx';
import { ReviewAlertCards } from './review-alerts-cards.tsx';
import { ratingText, rowTitle } from './review-alerts-format.ts';

const STATUS_COLORS: Record<string, string> = { sent: 'teal', failed: 'red', suppressed: 'orange', pending: 'gray' };

// Every time in the row's client's zone, named (DateTimeCell, decision 041).
const cells = {
  review_created_at: (r: ReviewAlertReportRow) => <DateTimeCell value={r.review_created_at} zone={r.client_timezone} />,
  created_at: (r: ReviewAlertReportRow) => <DateTimeCell value={r.sent_at} zone={r.client_timezone} />,
  replied_at: (r: ReviewAlertReportRow) => <DateTimeCell value={r.replied_at} zone={r.client_timezone} />,
  rating: (r: ReviewAlertReportRow) => ratingText(r.rating),
  delivery_status: (r: ReviewAlertReportRow) => (
    <Badge color={STATUS_COLORS[r.delivery_status] ?? 'blue'} variant="light">
      {deliveryStatusText(r)}
    </Badge>
  ),
};

/**
 * Review Alerts Report (domain.md §27): were review alerts delivered, and were negative reviews
 * handled? The cards over the whole filter above the kit's list of alert deliveries (filters,
 * columns, cards on phones, Export CSV), each row with its review link and Resend.
 */
export default function ReviewAlertsReportPage() {
  return (
    <ResourcePage
      resource={reviewAlertReportResource}
      readOnly
      title={rowTitle}
      cells={cells}
      intro={(list) => <ReviewAlertCards exportQuery={list.exportQuery()} />}
      rowActions={(row, list) => <ReviewAlertRowActions row={row} onResent={list.refresh} />}
      empty="No review alerts match these filters."
    />
  );
}
