import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function ReviewAlertsReportPage() {
  return <ScreenPlaceholder />;
}
