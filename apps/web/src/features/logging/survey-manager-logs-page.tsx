import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SurveyManagerLogsPage() {
  return <ScreenPlaceholder />;
}
