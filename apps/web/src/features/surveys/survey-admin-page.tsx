import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SurveyAdminPage() {
  return <ScreenPlaceholder />;
}
