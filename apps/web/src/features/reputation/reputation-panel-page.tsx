import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function ReputationPanelPage() {
  return <ScreenPlaceholder />;
}
