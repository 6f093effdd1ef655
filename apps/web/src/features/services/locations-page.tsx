import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function LocationsPage() {
  return <ScreenPlaceholder />;
}
