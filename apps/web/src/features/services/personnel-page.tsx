import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function PersonnelPage() {
  return <ScreenPlaceholder />;
}
