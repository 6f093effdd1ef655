import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SystemLogsPage() {
  return <ScreenPlaceholder />;
}
