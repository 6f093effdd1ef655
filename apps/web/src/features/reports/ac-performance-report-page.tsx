import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function AcPerformanceReportPage() {
  return <ScreenPlaceholder />;
}
