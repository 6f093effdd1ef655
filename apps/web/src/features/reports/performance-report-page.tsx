import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function PerformanceReportPage() {
  return <ScreenPlaceholder />;
}
