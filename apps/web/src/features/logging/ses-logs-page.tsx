import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SesLogsPage() {
  return <ScreenPlaceholder />;
}
