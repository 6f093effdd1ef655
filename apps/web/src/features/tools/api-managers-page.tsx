import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function ApiManagersPage() {
  return <ScreenPlaceholder />;
}
