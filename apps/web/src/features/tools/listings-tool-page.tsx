import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function ListingsToolPage() {
  return <ScreenPlaceholder />;
}
