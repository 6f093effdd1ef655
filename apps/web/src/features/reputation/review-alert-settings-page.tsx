import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function ReviewAlertSettingsPage() {
  return <ScreenPlaceholder />;
}
