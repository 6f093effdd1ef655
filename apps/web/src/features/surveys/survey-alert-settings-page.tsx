import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SurveyAlertSettingsPage() {
  return <ScreenPlaceholder />;
}
