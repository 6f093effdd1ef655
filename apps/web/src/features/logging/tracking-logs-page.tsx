import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function TrackingLogsPage() {
  return <ScreenPlaceholder />;
}
