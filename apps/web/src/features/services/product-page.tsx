import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function ProductPage() {
  return <ScreenPlaceholder />;
}
