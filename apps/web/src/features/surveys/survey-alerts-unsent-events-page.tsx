import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SurveyAlertsUnsentEventsPage() {
  return <ScreenPlaceholder />;
}
