import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function MergePersonnelPage() {
  return <ScreenPlaceholder />;
}
